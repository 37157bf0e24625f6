import { handleSpeech } from "../audio/handle-speech.js";
import { handleTranscriptions } from "../audio/handle-transcriptions.js";
import { handleChatCompletion } from "../chat/handle-chat-completion.js";
import {
  handleImageEdits,
  handleImageFile,
  handleImageGenerations,
} from "../images/handle-images.js";
import { handleListModels, handleRetrieveModel } from "../models/handle-models.js";
import { handleReceivedRequests, handleStats } from "../stats/handle-stats.js";
import type { Route } from "./context.js";
import { held } from "./held-route.js";

/** The routes every dialect serves: models, chat, images, audio (a dialect adds its video routes). */
export const sharedRoutes: readonly Route[] = [
  { pattern: "/v1/models", methods: { GET: handleListModels }, faultRoute: "models" },
  { pattern: "/v1/models/:id", methods: { GET: handleRetrieveModel }, faultRoute: "models" },
  { pattern: "/v1/chat/completions", methods: { POST: handleChatCompletion }, faultRoute: "chat" },
  {
    pattern: "/v1/images/generations",
    methods: { POST: handleImageGenerations },
    faultRoute: "images",
  },
  { pattern: "/v1/images/edits", methods: { POST: handleImageEdits }, faultRoute: "images" },
  {
    pattern: "/v1/images/files/:id",
    methods: { GET: handleImageFile },
    faultRoute: "images",
    public: true,
  },
  {
    pattern: "/v1/audio/speech",
    methods: { POST: held(handleSpeech) },
    faultRoute: "audio.speech",
  },
  {
    pattern: "/v1/audio/transcriptions",
    methods: { POST: held(handleTranscriptions) },
    faultRoute: "audio.transcriptions",
  },
  { pattern: "/_simulator/stats", methods: { GET: handleStats } },
  { pattern: "/_simulator/requests", methods: { GET: handleReceivedRequests } },
];
