export * from "./event-bus.js";
export * from "./event-queue.js";
export * from "./read-event-log.js";
export * from "./run-event.js";
export * from "./upgrade-event.js";
