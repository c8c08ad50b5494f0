// Two ways an action may meet itself running, named so the controller says which it wants.

/** Calls made while one is running are dropped: a double click on Apply applies once. */
export function exclusive(fn) {
  let running = false;
  return async function guarded(...args) {
    if (running) return undefined;
    running = true;
    try {
      return await fn.apply(this, args);
    } finally {
      running = false;
    }
  };
}

/** Calls made while one is running wait for it and then run themselves: a preview asked for
 * during an upload proposes against that upload (and what changed since), never the one before. */
export function queued(fn) {
  let tail = Promise.resolve();
  return function chained(...args) {
    const run = tail.then(() => fn.apply(this, args));
    tail = run.catch(() => {});
    return run;
  };
}
