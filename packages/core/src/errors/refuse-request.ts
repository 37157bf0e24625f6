import { InvalidRequestError, type RequestProblem } from "./invalid-request-error.js";

/**
 * Throws InvalidRequestError for a request's problems found before sending (its first field
 * named, every problem listed); does nothing when there are none.
 * @example refuseRequest(speechRequestProblems(params, models));
 */
export function refuseRequest(problems: readonly RequestProblem[]): void {
  const [first] = problems;
  if (!first) return;
  throw new InvalidRequestError(
    first.field,
    problems.map((problem) => `${problem.field}: ${problem.message}`).join("; "),
    problems,
  );
}
