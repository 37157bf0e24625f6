/**
 * The one interface every step kind implements (chat, video, ffmpeg, and any custom kind).
 *
 * A kind answers every question about itself: its body schema, its static checks, the types
 * of its outputs, the local files it reads, the service models it names, what it costs and
 * counts, where its cache files go, the account queue it needs, and how it runs. The
 * checker, the planner, the ledger, the executors and the report ask the kind; none of them
 * compares a kind's name. Adding a kind is one folder and one line in `registry.ts`.
 *
 * Built-in kinds keep their heavy parts (the TypeBox schema, the code that calls the service
 * or ffmpeg) behind `schema()` and `run()`, which load them on first use: validating a
 * pipeline never loads either.
 *
 * @example
 * ```ts
 * const echo = defineStepKind({ kind: "echo", schema: Type.Object({ text: Type.String() }), run: async (spec) => ({ text: spec.text }) });
 * ```
 */
import type { TSchema } from "@sinclair/typebox";
import type { InputFileField } from "../cache/cache-key.js";
import type {
  DistributiveOmit,
  ProgressStage,
  RunEvent,
  RunTotals,
  StepReportRole,
  UnitProgress,
} from "../events/index.js";
import type { CreditBudget } from "../executor/budget.js";
import type { LimitRunner } from "../executor/slot-pool.js";
import type { StepJournal } from "../journal/index.js";
import type { UnitLedger } from "../ledger/unit-ledger.js";
import type { KnownProbes } from "../media-probes/known-probes.js";
import type { ReelsmithClient } from "../pipeline/core-shim.js";
import type { StaticType } from "./static-types.js";

export type { InputFileField } from "../cache/cache-key.js";

export type { StepReportRole } from "../events/index.js";

/**
 * The model catalogs known, keyed by the provider profile's section name (`video_models`,
 * `image_models`, `speech_models`, …): each a list of models with their limits and prices as
 * core reads them (`videoCatalogFromProfile`, `imageModelsFromProfile`, …). A kind reads the
 * sections it knows; the shared code only carries the map.
 * @example const images = context.catalogs?.image_models; // [{ id: "reel-image-1", sizes: [...] }]
 */
export type ModelCatalogs = Readonly<Record<string, readonly { id: string }[]>>;

/** A path inside a step's body, e.g. ["seconds"] or ["tools", 0, "name"]. */
export type BodyPath = readonly (string | number)[];

/** What a kind's static `check` receives: a way to report problems at a path inside the step body. */
export interface CheckContext {
  /** Report a problem at a path inside this step's body. */
  report(
    path: BodyPath,
    message: string,
    options?: { severity?: "error" | "warning"; hint?: string; code?: string },
  ): void;
  /** True when a value contains no `${{ }}` expression (so it is known before the run). */
  isLiteral(value: unknown): boolean;
  /** The model catalogs known (a profile's, the service's list, the built-in simulator's); a section left out: unchecked. */
  catalogs?: ModelCatalogs;
  /** The pipeline's `defaults`, per kind. */
  defaults: Record<string, Record<string, unknown>>;
}

/**
 * A local file a step reads, named literally in its body: checked (it exists, it is a file,
 * it is of the expected format) before anything is paid.
 */
export interface LocalFileUse {
  /** Where it is named inside the body. */
  path: BodyPath;
  /** The path as written (relative paths resolve from the pipeline file's folder). */
  file: string;
  /** What it is, for messages: "image", "tool pipeline", "subtitles", "audio track", … */
  what: string;
  /** The format it must have (read from its bytes), when the kind needs one. */
  format?: "image" | "pipeline" | "subtitles" | "audio" | "video" | "font" | "program";
  /**
   * True when the step looks for a relative path in the run directory first (a file an
   * earlier step wrote), then beside the pipeline: a path found in neither is a problem only
   * when no step of the pipeline writes it (as its kind's `writes` says).
   */
  orWritten?: boolean;
}

/**
 * A body field that names a model of the service, and the catalog that holds it: the
 * provider profile's section name (`chat_models`, `video_models`, or a kind's own). Before a
 * run the service's model list is read into these sections and every literal model checked.
 * @example const field: ModelField = { field: "model", catalog: "voice_models" };
 */
export interface ModelField {
  /** The body field that names it; a dotted path for a nested one (`words.model`). */
  field: string;
  /** The catalog's section name (`<noun>_models`: messages call its models "<noun> models"). */
  catalog: string;
  /**
   * What to do about a model of this catalog the service does not offer, beyond the models
   * there are (e.g. how to declare it in a provider profile).
   */
  advice?(model: string): string;
}

/** What planning knows of one unit of a step (one item of a fan-out). */
export interface PlannedUnit {
  /**
   * Paid requests of one unit, by names the kind gives them (`videoJobs`, `chatRequests`,
   * `images`; shown with the kind's `requestLabels`), summed into the plan's `limits.requests`.
   * A unit with any request above 0 is paid, estimated from `credits`.
   */
  requests?: Readonly<Record<string, number>>;
  /**
   * Problems of the request known now (e.g. `seconds` from an input over a model's limit): a
   * message, or a message and the body field it is about (`["seconds"]`), which the refusal
   * points at.
   */
  problems?: (string | { message: string; field?: (string | number)[] })[];
  /** The model whose limits apply, with them in words, for the plan's limits section. */
  model?: { id: string; seconds?: string; sizes?: string };
  /** What one unit is expected to cost, in credits, when its price and request are known. */
  credits?: number;
  /**
   * The least and the most one unit can cost, when its price depends on what is known only
   * once it ran (a transcription priced per minute of audio not spoken yet); `credits` lies
   * between them.
   */
  creditsRange?: { atLeast: number; atMost: number };
  /**
   * What one unit costs model by model, when its requests are priced by more than one model (a
   * narration's voice and the transcription that times its words): each part in its model's
   * own unit, as the catalogs state its price. The planner totals each part in its unit, so a
   * voice in usd and a transcription in credits are never added together; `credits` is then
   * their sum, for a caller that knows every part is in credits. Without parts, the whole unit
   * is priced by the step's `model`.
   */
  parts?: readonly PlannedPart[];
  /**
   * Bounds on the unit's numeric outputs, known from its request before it runs, by output
   * field (a narration's `duration` from its text's length): the steps that read them are
   * priced between what the bounds give.
   */
  expected?: Readonly<Record<string, { atLeast: number; atMost: number }>>;
}

/** One model's part of what a unit costs ({@link PlannedUnit.parts}). */
export interface PlannedPart {
  /** The model the part is priced by. */
  model: string;
  /** What it costs, in the model's own unit (credits unless its provider's `unit:` says otherwise). */
  credits?: number;
  /** The least and the most it can cost, when that is known only once the unit ran. */
  creditsRange?: { atLeast: number; atMost: number };
}

/** What a kind's `plan` receives. */
export interface PlanContext {
  /** The model catalogs known, by profile section (`video_models`, `image_models`, …). */
  catalogs?: ModelCatalogs;
}

/** A job a unit holds at the service, as its journaled facts say. */
export interface HeldJob {
  id: string;
  /** How far it went: submitted, completed (paid), failed, or its result saved here. */
  state?: "submitted" | "completed" | "failed" | "saved";
  /** Credits it cost, once it completed. */
  credits?: number;
}

/**
 * Where a kind's units wait for their turn: a queue of the service account, named by the
 * kind (kinds that spend the same capacity share a name), or `local` (this machine).
 */
export type StepQueue = string;

/** What a kind's `run` receives from the executor: the unit's context and the run's services. */
export interface StepRunContext extends Partial<RunServices> {
  stepId: string;
  index?: number;
  /**
   * The take this run makes of the unit, from the second one (`reelsmith retake`); absent for
   * the first. A kind that sends idempotency keys puts it in them, so a retake is a new job.
   */
  take?: number;
  runDir: string;
  signal: AbortSignal;
  /**
   * Aborts when the run is stopping: send no new paid request (a video submission, a chat
   * round) once it has; finishing a job already submitted is fine (it is paid for).
   */
  stopSignal?: AbortSignal;
  client: ReelsmithClient;
  emit(event: DistributiveOmit<RunEvent, "seq" | "time">): void;
  /**
   * Tells how this unit's work goes (a `unit.progress` event naming the step, the item and the
   * kind): `phase` is one the kind declares in `phases`, with the stage declared for it.
   * @example context.progress("submitted", { stage: "submitted", job: job.id });
   */
  progress(phase: string, progress: UnitProgress): void;
  /** Resolve a path the pipeline names inside the run directory (refuses escapes). */
  resolveOutputPath(relative: string): string;
  /** Facts of this unit, journaled before they are acted on (a job id before polling). */
  journal: StepJournal;
  /**
   * Runs work once a slot of this kind's queue is free (the kind's `slots`, or the run's
   * `slots` for its queue; unlimited when neither says): waiting for it holds no other slot.
   * A kind takes one before it sends a paid request that holds capacity at the service.
   */
  slot: LimitRunner;
  /**
   * The place a request of this unit to another model than its own holds (a speech unit's
   * transcription): as `slot` is for the unit's model, that model's provider account's place
   * (its `max_concurrent_jobs`, on this kind's `accountQueue`) within this kind's queue's
   * slot. None: the host gives no such place (a kind run by hand).
   * @example await (context.slotOf?.(wordsModel) ?? ((work) => work()))(() => transcribe());
   */
  slotOf?(model: string): LimitRunner;
  /**
   * The run's ledger, for a kind that buys jobs: what it submits, re-attaches and is charged,
   * recorded as it happens. A kind that does not use it is accounted from its outputs
   * (`totals`) when its unit succeeds.
   */
  ledger: UnitLedger;
  /** This kind's pipeline defaults (already merged into the spec by the executor). */
  defaults: Record<string, unknown>;
}

/**
 * A place that reads a step's outputs: a field of another step, or one of the pipeline's
 * `outputs` (no `step`).
 * @example const reader: OutputReader = { step: "mixed", kind: "ffmpeg", body: { mix: "${{ steps.joined.outputs.file }}" }, field: ["mix"], output: "file" };
 */
export interface OutputReader {
  /** The reading step's id; absent for the pipeline's `outputs`. */
  step?: string;
  /** The reading step's kind. */
  kind?: string;
  /** The reading step's body as written (before defaults and expressions), when read there. */
  body?: Readonly<Record<string, unknown>>;
  /** Where the reference sits: a body field (`["transition"]`), a step field (`["for_each"]`), or `["outputs", name]`. */
  field: readonly string[];
  /** The output read (`file`, `duration`); absent when the whole outputs (or an item found by a computed index) are. */
  output?: string;
}

/**
 * What a run gives its kinds besides the unit's own context: the run's id, the pipeline's
 * directory (input files are relative to it), the credit budget, the model catalogs, the
 * probes of files already made, and sub-pipeline runs. Every run sets them all; a kind run
 * by hand (a unit test) may be given none.
 */
export interface RunServices {
  /** The run's random id (run.json, run.start): part of every Idempotency-Key it sends. */
  runId: string;
  /** Directory of the pipeline file; relative input paths (images, audio) resolve against it. */
  pipelineDir: string;
  budget: CreditBudget;
  /**
   * Video job ids the run holds (journaled or submitted now): a listed job is adopted once.
   * `refresh` brings it up to date with the jobs held where other processes journal them (a
   * worker's, whose run's other units run elsewhere); asked before a listed job is adopted.
   */
  claimedJobs?: { has(id: string): boolean; add(id: string): unknown; refresh?(): Promise<void> };
  /** Probes of media files this run already made (so no file is probed twice). */
  knownProbes?: Pick<KnownProbes, "add" | "addFromOutputs" | "for">;
  /** Submit again a re-attached video job that the service no longer knows (a new, paid job). */
  resubmitLostJobs?: boolean;
  /**
   * Who reads a step's outputs in the pipeline as written (other steps' fields, the
   * pipeline's `outputs`). None: unknown (a kind then assumes anyone may).
   */
  readersOf?: (stepId: string) => readonly OutputReader[];
  /**
   * What a later plain step (no `for_each`, no `if:`) will ask for, evaluated now as the
   * executor will evaluate it, with `assumed` as one step's outputs (the asking step's, still
   * under way); undefined when it cannot be known yet (a step it waits for has not succeeded,
   * an expression fails). A kind uses it to make a reader's file in its own pass, which the
   * reader then checks against what it is really asked. None: the host cannot tell.
   * @example context.requestOf?.("tall", { step: "tall_frame", outputs: { file } })?.output // "final-9x16.mp4"
   */
  requestOf?: (
    stepId: string,
    assumed: { step: string; outputs: Record<string, unknown> },
  ) => Record<string, unknown> | undefined;
  /**
   * What a step made ahead for a later one (see `requestOf`), by the later step's output
   * path: the run's own, dropped with it, so an entry whose reader never ran (the run stopped
   * between them) is not kept for the life of the process. A kind keeps and takes its own
   * entries; the reader checks an entry against what it is really asked. None: nothing is
   * made ahead.
   */
  madeAhead?: Map<string, unknown>;
  /** Gates (`approve:` steps) are approved by the run itself, by "auto" (unattended runs). */
  autoApprove?: boolean;
  /** The other model catalogs known, by profile section (`image_models`, …): requests are checked and priced against them. */
  catalogs?: ModelCatalogs;
  /**
   * Resolves when this unit may still write what it made, and rejects when it may not (on
   * the workers: another worker took the unit over while this one was frozen or cut off);
   * it may wait while its worker learns which. Called right before an artifact is renamed
   * into place. None: the unit always may (a local run).
   */
  fence?: (action: string) => Promise<void>;
  /**
   * Runs another pipeline file as part of this run (chat `pipeline:` tools). `onTotals`
   * receives what the sub-run spent (also when it fails), so the calling step counts it.
   */
  runSubPipeline(
    file: string,
    inputs: Record<string, unknown>,
    options: { signal: AbortSignal; name: string; onTotals?: (totals: RunTotals) => void },
  ): Promise<Record<string, unknown>>;
}

/** What a kind's `checkRequest` reads besides the request: where files are, the known models. */
export interface RequestCheckContext {
  /** Directory of the pipeline file (relative files resolve from it). */
  pipelineDir: string;
  /** The model catalogs known, by the provider profile's section name (`video_models`, …). */
  catalogs?: ModelCatalogs | undefined;
}

/** How results of a kind are cached (a kind without one is never cached). */
export interface StepCachePolicy<Spec = Record<string, unknown>> {
  /** Fields left out of the cache key: they change where a result goes, not what is asked. */
  ignore?: readonly string[];
  /**
   * Fields naming local input files that count by their bytes alone, not their paths: an
   * earlier step's file in another run's directory asks for the same result. Each field says
   * how its value names files ({@link InputFileField}).
   * @example inputFiles: { image: "value", params: "values" }
   */
  inputFiles?: Readonly<Record<string, InputFileField>>;
  /** Where a cached run puts each file output, relative to the run directory. */
  placeFiles?(spec: Spec, at: { stepId: string; index?: number }): Record<string, string>;
  /**
   * A cached result as the kind writes its outputs today (a field an earlier version wrote
   * otherwise, written anew from the request): a change of how outputs are written costs no
   * request. Given the outputs as cached; returns them unchanged when nothing is to do.
   */
  revive?(outputs: Record<string, unknown>, spec: Spec): Record<string, unknown>;
}

/** A step kind as it is written: everything but `kind`, `schema` and `run` may be left out. */
export interface StepKindSpec<Spec = Record<string, unknown>> {
  /** The YAML key that selects the kind. */
  kind: string;
  /** The body's schema (TypeBox), or a function that loads it. */
  schema: TSchema | (() => TSchema | Promise<TSchema>);
  /** What `defaults.<kind>` may hold (default: any part of the body's object schema). */
  defaultsSchema?: () => TSchema | Promise<TSchema>;
  /** The account queue its units wait on (default: `local`, this machine's). */
  queue?: StepQueue;
  /**
   * How many of its queue's units hold a slot at once by default (`context.slot`), on this
   * machine and, for a distributed run, across the account; none: no limit of its own.
   * A run's `slots` option overrides it per queue.
   */
  slots?: number;
  /**
   * The provider account's capacity a unit holds while the account works on its paid request
   * (`context.slot`): a unit whose model is served by a provider account with a
   * `max_concurrent_jobs` takes one of that account's places of this name, within its own
   * queue's slot. Kinds naming the same one share the account's limit (the built-in paid
   * kinds all name `jobs`: an account's clips, images and voice count together). None: its
   * units hold no place of an account. A run's `slots` sizes it per account as
   * `<accountQueue>@<account>` (`accountSlotSizes` builds them from the accounts).
   * @example accountQueue: "jobs"
   */
  accountQueue?: StepQueue;
  /**
   * The moments of its work it reports with `context.progress`, each with the stage a renderer
   * shows it as (default: none; a kind that reports an undeclared phase fails loudly in tests).
   * @example phases: { submitted: "submitted", status: "status", downloaded: "saved" }
   */
  phases?: Readonly<Record<string, ProgressStage>>;
  /** False for a kind whose steps cannot take `for_each` (validation refuses it; default true). */
  fanOut?: boolean;
  /** The type of one run's outputs (default: an object of unknown fields). */
  outputs?(spec: Spec): StaticType;
  /** Outputs some bodies leave unset: name → why (a warning where one is read). */
  conditionalOutputs?(spec: Spec): Readonly<Record<string, string>>;
  /** Advice shown where an output is misread (a property of a string, a `for_each` over it). */
  outputHints?: Readonly<Record<string, string>>;
  /** Static checks beyond the schema (model limits, stop count, output paths). */
  check?(spec: Spec, context: CheckContext): void;
  /** Local files the body names literally. */
  files?(spec: Spec): LocalFileUse[];
  /**
   * The files a step of this kind writes, relative to the run directory, as its body names
   * them (a `${{ … }}` in a path stands for any text: `clips/${{ index }}.mp4`). Checks read
   * it to tell a later step's input that no step makes. Left out: unknown (any path may be
   * written); a kind that writes no file says `() => []`.
   */
  writes?(spec: Spec, stepId: string): string[];
  /** Body fields that name a service model. */
  models?: readonly ModelField[];
  /** What one unit asks of the service, from the values known before the run. */
  plan?(known: Record<string, unknown>, context: PlanContext): PlannedUnit;
  /**
   * How the plan shows the requests `plan` counts, by name (`{ videoJobs: "video jobs" }`);
   * a step of the kind counts each named one from 0. A name without a label is shown as is.
   */
  requestLabels?: Readonly<Record<string, string>>;
  /** What one unit spent, read from its outputs (default: `usage` tokens and `credits`). */
  totals?(outputs: Record<string, unknown>): Partial<RunTotals>;
  /** One line naming a request, for cache listings. */
  summary?(spec: Spec): string;
  /**
   * The job a journaled unit holds at the service, read from the facts it journaled: its id
   * (a resumed run claims it, never adopts it for another unit) and, once it completed, the
   * credits it cost (already spent, before the resume).
   */
  heldJob?(facts: Readonly<Record<string, Record<string, unknown>>>): HeldJob | undefined;
  /** Results of identical requests are reused from the cache when this is set. */
  cache?: StepCachePolicy<Spec>;
  /** How the run report shows its units (default: in the timeline only). */
  report?: StepReportRole;
  /**
   * Checks one unit's evaluated request as `run` would before sending anything (files read,
   * values against the models' limits), throwing what `run` would throw. A retake's request
   * is checked with it before the take is journaled.
   */
  checkRequest?(spec: Spec, context: RequestCheckContext): Promise<void>;
  /** Run one step (or one fan-out item) whose expressions are already evaluated. */
  run(spec: Spec, context: StepRunContext): Promise<Record<string, unknown>>;
}

/** A step kind with every answer filled in (see {@link defineStepKind}). */
export interface StepKind<Spec = Record<string, unknown>>
  extends Required<
    Pick<
      StepKindSpec<Spec>,
      "kind" | "queue" | "outputs" | "files" | "models" | "plan" | "totals" | "summary" | "run"
    >
  > {
  schema(): Promise<TSchema>;
  defaultsSchema?: () => TSchema | Promise<TSchema>;
  conditionalOutputs?(spec: Spec): Readonly<Record<string, string>>;
  outputHints?: Readonly<Record<string, string>>;
  check?(spec: Spec, context: CheckContext): void;
  cache?: StepCachePolicy<Spec>;
  report?: StepReportRole;
  requestLabels?: Readonly<Record<string, string>>;
  fanOut?: boolean;
  slots?: number;
  accountQueue?: StepQueue;
  phases?: Readonly<Record<string, ProgressStage>>;
  heldJob?(facts: Readonly<Record<string, Record<string, unknown>>>): HeldJob | undefined;
  checkRequest?(spec: Spec, context: RequestCheckContext): Promise<void>;
  writes?(spec: Spec, stepId: string): string[];
}

/** A step kind of any body type. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds of every body type
export type AnyStepKind = StepKind<any>;
