export * from "./ambiguous-video-submission-error.js";
export * from "./lost-video-job-error.js";
