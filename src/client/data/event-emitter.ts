// A small typed event emitter: the session announces login, register, refresh, logout and
// restored (docs/accounts-and-shell.md §4) so later features (sync engine, socket, push) can react to them
// without the session knowing they exist.

type Listener<T> = (payload: T) => void;

export interface EventEmitter<Events extends object> {
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void;
  emit<K extends keyof Events>(event: K, payload: Events[K]): void;
}

export function createEventEmitter<Events extends object>(): EventEmitter<Events> {
  const listeners = new Map<keyof Events, Set<Listener<never>>>();
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as Listener<never>);
      return () => set.delete(listener as Listener<never>);
    },
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        (listener as Listener<typeof payload>)(payload);
      }
    },
  };
}
