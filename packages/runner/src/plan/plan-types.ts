/** What a pipeline will do, worked out before anything is sent (the CLI's `plan`). */
export interface Plan {
  name: string;
  description?: string;
  /** Inputs as the run would see them (undefined when they could not be resolved). */
  inputs?: Record<string, unknown>;
  /** Why some values are unknown, e.g. missing required inputs. */
  notes: string[];
  /** Requests that would be refused, found now that inputs are known (e.g. `seconds` from an input over the model's limit). */
  problems: { step: string; message: string; field?: (string | number)[] }[];
  /** Groups of steps that can run at the same time, in order. */
  stages: PlanStage[];
  steps: PlannedStep[];
  limits: PlanLimits;
}

/** Steps whose dependencies are all in earlier stages. */
export interface PlanStage {
  index: number;
  steps: string[];
}

/** One step of the plan. */
export interface PlannedStep {
  id: string;
  name?: string;
  kind: string;
  stage: number;
  /** Steps it waits for (`needs` plus references). */
  dependsOn: string[];
  /** The `if:` condition, when there is one. */
  condition?: string;
  fanOut?: PlannedFanOut;
  /** The request with pipeline defaults merged: values known now, and fields known only at run time. */
  request: { known: Record<string, unknown>; pending: string[] };
  /** Literal video requests' model, when known (for the limits). */
  model?: string;
  /**
   * The paid requests one of its units sends, by the names its kind gives them (summed into
   * `limits.requests` for its units still to run); none for a step that pays nothing.
   */
  requests?: Record<string, number>;
  /** What the step is expected to cost, where its price is known. */
  estimate?: StepEstimate;
}

/**
 * What a step is expected to cost: each unit's price (when its kind knows it from the
 * request and the model's price) times its units (when their number is known now).
 */
export interface StepEstimate {
  /** Credits one unit is expected to cost. */
  perUnit?: number;
  /** Units still to run: 1, the fan-out's size when known, less those a resumed run has. */
  units?: number;
  /** Units the cache will serve (they cost nothing; left out of `units`). */
  cached?: number;
  /** `perUnit × units`, when both are known; the least it will cost when it is a range. */
  credits?: number;
  /** Credits its units already cost in the run's earlier sessions (counted in `credits`). */
  spent?: number;
  /** The most it can cost, when its units' prices are known as a range (`credits` to this). */
  creditsAtMost?: number;
  /**
   * The unit `perUnit` and `credits` are in when it is not credits (a provider's `unit:` with no
   * rate to credits): such a step counts in the run's `otherUnits`, never in its credits.
   */
  unit?: string;
  /**
   * Its parts priced in units other than credits with no rate to credits, when it has parts in
   * credits too (a voice in usd, its transcription in credits): by unit, what one unit costs in
   * it and what its units cost (when their number is known). Counted in the run's
   * `otherUnits`, never in `credits`.
   */
  otherUnits?: Record<string, { perUnit?: number; amount?: number }>;
  /** When the number of units is known only at run time: the fewest and the most it can be. */
  unitsAtLeast?: number;
  unitsAtMost?: number;
}

/** What a run is expected to cost before it starts. */
export interface RunEstimate {
  /** The certain part: every step whose price and size are known now. */
  credits: number;
  /** True when every paid step's price and size are known (the estimate is the whole run). */
  complete: boolean;
  /** The most it can cost, when it is not complete but every paid step has a price and a largest size. */
  creditsAtMost?: number;
  /** Each step's estimate, by id (steps that cost nothing are left out). */
  steps: Record<string, StepEstimate>;
  /**
   * What the run costs in units other than credits, by unit (`usd`, `characters`, …): the
   * steps whose models' providers price in them with no rate to credits. Never added to
   * `credits`; a run with a credit budget refuses them.
   */
  otherUnits?: Record<string, OtherUnitTotal>;
}

/** A run's total in a unit other than credits. */
export interface OtherUnitTotal {
  /** The certain part, in the unit. */
  amount: number;
  /** True when every step priced in it has its price and size known. */
  complete: boolean;
  /** The models priced in it, and their providers. */
  models: string[];
  providers: string[];
}

/** A `for_each` step. */
export interface PlannedFanOut {
  /** Number of items when known now (a literal list, or one computed from inputs). */
  items?: number;
  /** The expression the list comes from, when it is only known at run time. */
  from?: string;
  /** Bounds on its number of items where they are known and differ (a JSON Schema's minItems/maxItems). */
  atLeast?: number;
  atMost?: number;
  maxParallel?: number;
}

/** Limits that apply to the run. */
export interface PlanLimits {
  /** Models the pipeline's kinds say limit their requests, with the limits in words, where known. */
  models: { model: string; seconds?: string; sizes?: string; steps: string[] }[];
  /** Credit budget from the pipeline (`max_credits`). */
  maxCredits?: number;
  /**
   * Paid requests, by the names their kinds give them (`chatRequests`, `videoJobs`, `images`,
   * …; chat tool rounds not counted): a count when every fan-out size is known now, undefined
   * otherwise. A step's kind counts each name it labels from 0. Units a resumed run already
   * has are not counted, nor (once `estimateRun` looked) those the cache will serve.
   */
  requests: Record<string, number | undefined>;
  /** How each request name is shown, as its kind labels it (`videoJobs` → "video jobs"). */
  requestLabels: Record<string, string>;
  /** What the run is expected to cost. */
  estimate: RunEstimate;
}
