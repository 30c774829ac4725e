/**
 * A value built on first use and kept for the isolate's life (issue 30 §1 "Nothing at import"): the global scope of a
 * Worker runs at every cold start, within 1 s of CPU, so pattern tables, word lists, example replies and
 * schema-derived documents are built by the first request that needs them, never at import.
 *
 * Every value made by `lazy` is counted when it is first built (`lazyBuilt()`, by the name given): test/platform/
 * startup.test.ts imports the Worker and checks that none was built by importing it.
 */
const built: string[] = [];

export function lazy<T>(make: () => T, name: string = make.name || "lazy"): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
      built.push(name);
    }
    return value;
  };
}

/** The names of the lazy values built so far in this isolate, in the order they were built. */
export const lazyBuilt = (): readonly string[] => built;
