import type { Route } from "../server/context.js";
import {
  handleCreateVideo,
  handleListVideos,
  handleRetrieveVideo,
  handleVideoContent,
} from "./handle-videos.js";

/** The `/v1/videos` resource, as the reference and openai dialects serve it. */
export const v1VideoRoutes: readonly Route[] = [
  {
    pattern: "/v1/videos",
    methods: { POST: handleCreateVideo, GET: handleListVideos },
    faultRoute: "videos.create",
    faultRouteByMethod: { GET: "videos.list" },
  },
  {
    pattern: "/v1/videos/:id",
    methods: { GET: handleRetrieveVideo },
    faultRoute: "videos.retrieve",
  },
  {
    pattern: "/v1/videos/:id/content",
    methods: { GET: handleVideoContent },
    faultRoute: "videos.content",
  },
];
