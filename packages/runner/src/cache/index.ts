export * from "./cache-admin.js";
export * from "./cache-entry.js";
export * from "./cache-index.js";
export * from "./cache-key.js";
export * from "./file-cache-index.js";
export type { EstimateCache } from "./request-cache-key.js";
export {
  accountRouting,
  BUILT_IN_SERVICE,
  type ModelRouting,
  serviceIdentity,
} from "./service-identity.js";
export * from "./step-cache.js";
