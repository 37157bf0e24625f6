export * from "./cache-admin.js";
export * from "./cache-key.js";
export * from "./service-identity.js";
export * from "./step-cache.js";
