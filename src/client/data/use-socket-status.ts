import { useSyncExternalStore } from 'react';
import {
  socketService as defaultService,
  type SocketService,
  type SocketState,
} from './socket-service';

/** The realtime connection's status, attempt and typed error (spec 02 §4, §8); lazy code only (socket.io-client). */
export function useSocketStatus(service: SocketService = defaultService): SocketState {
  return useSyncExternalStore(service.subscribe, service.getSnapshot, service.getSnapshot);
}
