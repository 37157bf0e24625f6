/** One stored result: the outputs of a step request and the files they name. */
export interface CacheEntry {
  key: string;
  kind: string;
  step: string;
  createdAt: string;
  /** Outputs, with file outputs as paths relative to the run directory. */
  outputs: Record<string, unknown>;
  /** Output fields that name files: field → { path relative to the run dir, blob sha256, bytes }. */
  files: Record<string, { path: string; sha256: string; bytes: number }>;
  /** A short description of the request (model, prompt start) for `cache ls`. */
  summary?: string;
  /**
   * What making the result cost, as its unit's ledger said (its own jobs and what the
   * sub-pipelines its tools ran spent) and what it made, by noun: saved again each time the
   * entry is served. (Entries written before `made` hold a count by noun beside `credits`.)
   */
  worth?: { credits: number; made?: Record<string, number> };
}

/**
 * Bytes of the files an entry names.
 * @example entryBytes(entry) // 1048576
 */
export function entryBytes(entry: Pick<CacheEntry, "files">): number {
  return Object.values(entry.files ?? {}).reduce((sum, file) => sum + file.bytes, 0);
}
