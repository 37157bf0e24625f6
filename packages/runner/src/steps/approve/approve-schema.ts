import { type Static, Type } from "@sinclair/typebox";

/** What an `approve:` step holds: the question, what to look at, and how long to wait. */
export const ApproveStepSchema = Type.Object(
  {
    message: Type.String({
      minLength: 1,
      description: "What the person deciding is asked (shown by the CLI, `status` and the report).",
    }),
    show: Type.Optional(
      Type.Array(Type.Unknown(), {
        description: `Values to look at before deciding, usually earlier outputs, e.g. \`\${{ steps.storyboard.outputs.json.scenes }}\`.`,
      }),
    ),
    timeout: Type.Optional(
      Type.String({
        pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$",
        description:
          'How long the gate waits for a decision, from the moment the run first reached it ("30m", "2h"); past it, the step fails with approval_timeout. Default: no limit.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The body of an `approve:` step. */
export type ApproveStepSpec = Static<typeof ApproveStepSchema>;

/** What `defaults.approve` may hold: a timeout shared by every gate. */
export const ApproveDefaultsSchema = Type.Partial(
  Type.Object({ timeout: ApproveStepSchema.properties.timeout }, { additionalProperties: false }),
);
