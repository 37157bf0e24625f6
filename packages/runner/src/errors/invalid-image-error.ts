import { RunnerError } from "./runner-error.js";

/**
 * An image a step would upload is not one: not a PNG, JPEG, GIF or WebP by its bytes, empty,
 * too large for the service, or unreadable. Thrown before the request, so nothing is paid.
 * @example throw new InvalidImageError("frames/a.png", "it is empty");
 */
export class InvalidImageError extends RunnerError {
  readonly image: string;
  constructor(image: string, reason: string) {
    super("invalid_image", `image ${image} cannot be sent: ${reason}`);
    this.image = image;
  }
}
