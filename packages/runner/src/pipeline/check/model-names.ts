import type { ListedModels } from "@reelsmith/core/profile";
import type { KnownCatalog } from "../../errors/unknown-model-error.js";
import type { AnyStepKind, ModelCatalogs } from "../../steps/step-kind.js";
import { closest } from "../schema-errors.js";
import type { ModelUse } from "./model-uses.js";

/** What is known of the models a service offers, and from where. */
export interface ModelKnowledge {
  /**
   * Catalogs known before anything is asked, by profile section: a provider profile's, the
   * built-in simulator's. A section held here is known offline: a model outside it is unknown.
   */
  catalogs?: ModelCatalogs | undefined;
  /**
   * True when the catalogs are not all the service offers and its list was not read (a real
   * service, offline): a model outside them is unchecked, not unknown.
   */
  partial?: boolean | undefined;
  /** The service's `GET /v1/models`, read as a profile's sections (core's `listedModels`). */
  listed?: ListedModels | undefined;
  /**
   * Why a section neither the catalogs nor the list holds cannot be checked here (e.g. "the
   * service's model list is not read offline"): each such model is a warning saying so. None:
   * such models are left to the first request, silently.
   */
  unchecked?: string | undefined;
}

/** How a model is known in a section. */
type Standing = "held" | "without its limits" | "without a type" | "unknown" | "unchecked";

/** What the check found of a pipeline's models. */
export interface ModelJudgement<Use extends ModelUse = ModelUse> {
  /** Models the catalog in force says do not exist, each with the closest known one. */
  unknown: (Use & { near?: string })[];
  /** Models of a section nobody knows here (see `ModelKnowledge.unchecked`). */
  unchecked: Use[];
  /** Listed models whose limits and price are unknown (`typed`: listed with a type, without limits). */
  unpriced: { use: Use; typed: boolean }[];
  /** The models each catalog the kinds declare offers, for a message. */
  known: KnownCatalog[];
  /** The catalogs a run may use: the given ones, with the models the service lists with their limits. */
  catalogs: ModelCatalogs | undefined;
}

/**
 * The one check of the models a pipeline names (every kind's `models` fields, input defaults
 * and given inputs included: `modelUsesOf`) against what is known of the service: a model is
 * known when a given catalog (profile, built-in simulator) holds it, or the service lists it
 * under its section, or lists it untyped (an aggregator lists every id untyped) and no other
 * catalog holds it. Without a list, a section a given catalog holds is closed: a model
 * outside it is unknown (unless `partial`); any other section is unchecked. `validate`, `plan`, `run`, the MCP
 * tools and the studio all judge with it.
 *
 * @example
 * const { unknown } = judgeModelUses(modelUsesOf(spec, kinds), { catalogs: modelCatalogs }, kinds);
 */
export function judgeModelUses<Use extends ModelUse>(
  uses: readonly Use[],
  knowledge: ModelKnowledge,
  kinds: ReadonlyMap<string, AnyStepKind>,
): ModelJudgement<Use> {
  const { catalogs } = knowledge;
  const listed = knowledge.listed && knowledge.listed.ids.length > 0 ? knowledge.listed : undefined;
  const merged: Record<string, readonly { id: string }[]> = { ...catalogs };
  let changed = false;
  for (const [section, entries] of Object.entries(listed?.described ?? {})) {
    const given = merged[section] ?? [];
    const more = entries.filter((entry) => !given.some((known) => known.id === entry.id));
    if (more.length > 0) merged[section] = [...given, ...more];
    changed ||= more.length > 0;
  }
  const holds = (section: string, id: string) =>
    merged[section]?.some((entry) => entry.id === id) === true;
  const heldElsewhere = (section: string, id: string) =>
    Object.keys(merged).some((other) => other !== section && holds(other, id));
  const standing = (section: string, id: string): Standing => {
    if (holds(section, id)) return "held";
    if (!listed) return catalogs?.[section] && !knowledge.partial ? "unknown" : "unchecked";
    if (!listed.ids.includes(id)) return "unknown";
    const typed = listed.sectionOf.get(id);
    if (typed !== undefined ? typed !== section : heldElsewhere(section, id)) return "unknown";
    if (!Object.hasOwn(listed.described, section)) return "held";
    return typed === section ? "without its limits" : "without a type";
  };
  const offered = (section: string) => [
    ...new Set([
      ...(merged[section] ?? []).map((entry) => entry.id),
      ...(listed?.ids ?? []).filter((id) => standing(section, id) !== "unknown"),
    ]),
  ];
  const sections = [
    ...new Set([...kinds.values()].flatMap((kind) => kind.models.map((field) => field.catalog))),
  ];
  const judgement: ModelJudgement<Use> = {
    unknown: [],
    unchecked: [],
    unpriced: [],
    known: sections.map((section) => ({
      catalog: section,
      models: offered(section),
      empty:
        catalogs?.[section] || Object.hasOwn(listed?.described ?? {}, section)
          ? "none known"
          : "none listed",
    })),
    catalogs: changed ? merged : catalogs,
  };
  for (const use of uses) {
    const state = standing(use.catalog, use.model);
    if (state === "unknown") {
      const near = closest(use.model, offered(use.catalog));
      judgement.unknown.push({ ...use, ...(near ? { near } : {}) });
    } else if (state === "unchecked") judgement.unchecked.push(use);
    else if (state !== "held")
      judgement.unpriced.push({ use, typed: state === "without its limits" });
  }
  return judgement;
}
