/** Names of a video step's outputs. */
export const videoOutputs = ["file", "id", "duration", "credits", "url", "probe"] as const;
