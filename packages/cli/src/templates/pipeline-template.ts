/**
 * The pipeline `reelsmith init` writes: a story → a storyboard → one clip per scene → a video.
 * `schemaPath` goes on the first line, for editors with the YAML language server.
 *
 * @example
 * writeFile("pipeline.yaml", pipelineTemplate({ name: "my-film", schemaPath: "./schema.json" }));
 */
export function pipelineTemplate(options: { name: string; schemaPath: string }): string {
  return `# yaml-language-server: $schema=${options.schemaPath}
name: ${options.name}
description: A story becomes a storyboard, one clip per scene, and one video.

inputs:
  story:
    type: string
    description: The story to film
    default: A paper boat sails down a rainy street, past a sleeping cat, into a sunlit puddle.
  scenes:
    type: integer
    description: How many scenes (one clip each)
    default: 3
    minimum: 1
    maximum: 12

defaults:
  chat: { model: reel-chat-1 }
  video: { model: reel-video-2-lite, seconds: 2, size: 854x480 }

# A run expected to cost more is refused before anything is sent.
max_credits: 200

steps:
  - id: storyboard
    chat:
      system: You are a storyboard artist. Reply in JSON.
      prompt: "Split this story into \${{ inputs.scenes }} scenes, one visual description each: \${{ inputs.story }}"
      schema:
        type: object
        required: [scenes]
        properties:
          scenes:
            type: array
            # Exactly as many scenes as asked: the clips' number, and their price, known before the run.
            minItems: \${{ inputs.scenes }}
            maxItems: \${{ inputs.scenes }}
            items:
              type: object
              required: [description]
              properties:
                description: { type: string }

  - id: clips
    for_each: \${{ steps.storyboard.outputs.json.scenes }}
    max_parallel: 4
    video:
      prompt: \${{ item.description }}
      output: clips/scene-\${{ index }}.mp4

  - id: final
    ffmpeg:
      concat: \${{ steps.clips.outputs.*.file }}
      output: final.mp4

outputs:
  video: \${{ steps.final.outputs.file }}
`;
}
