/**
 * An async function as an event handler (`onClick`, `onSubmit`, `addEventListener`). React and
 * the DOM drop the promise a handler returns, so its rejection would go unhandled. The function
 * itself catches and shows the failures it expects (a form alert, a toast); whatever still
 * escapes is a bug, logged as one (a test that logs a console.error fails).
 */
export function asyncHandler<Args extends unknown[]>(
  run: (...args: Args) => Promise<unknown>,
): (...args: Args) => void {
  return (...args) => {
    run(...args).catch((error: unknown) => console.error('An event handler failed', error));
  };
}
