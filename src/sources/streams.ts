/** A response body read as a stream of its byte chunks (empty chunks skipped); the reader is released when the consumer stops. */
export async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (value?.length) yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
