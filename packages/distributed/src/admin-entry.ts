// @reelsmith/distributed/admin: what an operator manages in the database: an account's
// budget, the prices learnt from finished jobs, the shared result cache, a service's limits,
// and the workers.
// @example import { listWorkers } from "@reelsmith/distributed/admin";
export { setBudget } from "./budget/database-budget.js";
export { type LearntPriceRow, listLearntPrices } from "./budget/learnt-prices.js";
export {
  type ClearedDatabaseCache,
  clearDatabaseCache,
  listDatabaseCache,
} from "./cache/database-cache-admin.js";
export { configureService, type ServiceLimits } from "./client/configure-service.js";
export { type ServiceAccount, serviceAccount } from "./service.js";
export { listWorkers, type WorkerInfo } from "./worker/worker-registry.js";
