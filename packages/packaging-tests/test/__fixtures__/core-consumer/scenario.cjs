"use strict";
// The work a program does with @reelsmith/core, given the module however it was loaded
// (import or require). It returns what happened for the test to check. The service, key and
// models come from the environment: REELSMITH_BASE_URL, REELSMITH_API_KEY, CHAT_MODEL,
// VIDEO_MODEL, VIDEO_SIZE, OUT_DIR.
const path = require("node:path");

module.exports = async function useCore(core) {
  const { CHAT_MODEL, VIDEO_MODEL, VIDEO_SIZE, OUT_DIR } = process.env;
  const client = core.createClient({ pollIntervalMs: 250 });

  // A streamed chat, assembled from its chunks.
  const stream = await client.chat.completions.create({
    model: CHAT_MODEL,
    messages: [{ role: "user", content: "Write a one-line logline for a fox who films sunsets." }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let streamedText = "";
  let contentChunks = 0;
  for await (const chunk of stream) {
    const piece = chunk.choices[0]?.delta?.content;
    if (piece) {
      streamedText += piece;
      contentChunks += 1;
    }
  }
  const completion = await stream.finalCompletion();

  // A tool loop: the model asks for the weather, the tool answers, the model replies.
  const toolCalls = [];
  const tools = await client.chat.runTools({
    model: CHAT_MODEL,
    messages: [{ role: "user", content: "What is the weather in Oslo?" }],
    tools: [
      {
        name: "weather",
        description: "Current weather for a city",
        parameters: {
          type: "object",
          required: ["city"],
          properties: { city: { type: "string", description: "The city" } },
        },
        execute: async (args) => {
          toolCalls.push(args);
          return { city: args.city, sky: "drizzle-7731", celsius: 12 };
        },
      },
    ],
    maxRounds: 4,
  });

  // A video: created, polled until done, downloaded.
  const statuses = [];
  const job = await client.videos.createAndWait(
    {
      model: VIDEO_MODEL,
      prompt: "A paper boat rides the rain to the sea",
      seconds: 1,
      size: VIDEO_SIZE,
    },
    { onUpdate: (update) => statuses.push(update.status) },
  );
  const download = await client.videos.downloadContent(job.id, {
    to: path.join(OUT_DIR, "clip.mp4"),
  });

  // A refused key: the typed error, recognised across module copies.
  let refused;
  try {
    await core.createClient({ apiKey: "sk-not-the-key", maxRetries: 0 }).models.list();
  } catch (error) {
    refused = {
      name: error.name,
      code: error.code,
      status: error.status,
      recognised: core.ReelsmithError.isInstance(error),
      leaksKey: JSON.stringify(error.toJSON()).includes("sk-not-the-key"),
    };
  }

  return {
    streamedText,
    contentChunks,
    completionContent: completion.choices[0]?.message.content,
    usage: completion.usage,
    toolCalls,
    toolRounds: tools.rounds,
    toolAnswer: tools.completion.choices[0]?.message.content,
    job: { id: job.id, status: job.status, duration: job.duration },
    statuses,
    download,
    refused,
  };
};
