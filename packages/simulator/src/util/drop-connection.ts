import type { Socket } from "node:net";

/**
 * Cut a connection the way a failing network does, after what was already written has left
 * (so a client sees a partial response, then the connection closing).
 *
 * @example
 * await dropConnection(request.socket);
 */
export async function dropConnection(socket: Socket): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (socket.writableLength > 0 && !socket.destroyed) {
    await new Promise((resolve) => {
      socket.once("drain", resolve);
      socket.once("close", resolve);
    });
  }
  socket.destroy();
}
