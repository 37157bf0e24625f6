/** Names of a chat step's outputs. */
export const chatOutputs = ["text", "json", "usage", "messages"] as const;
