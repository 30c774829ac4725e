export function createDevLogFilter(): (line: string) => string[];
export function pipeFiltered(
  stream: { on(ev: string, fn: (chunk: string) => void): unknown; setEncoding?(e: string): unknown },
  write: (s: string) => void,
): void;
