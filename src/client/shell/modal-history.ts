import { useEffect, useRef } from 'react';
import type { ModalStore } from './modal-store';

// The phone's Back while a modal is open (a sheet on a phone): it closes the modal, or steps
// back inside a modal with steps (the bet form's Type step back to Details), instead of
// leaving the page under it. While a modal is open the browser's history holds one entry of
// ours above the page, same address, marked in its state; Back takes it off and we close (or
// step back and put one on again).
//
// A modal closed another way (X, Escape, done) leaves its entry where it is: taking it off
// then (history.back()) is a navigation of its own, and one made while the player, or a
// reload, was already leaving the page cancelled that ("net::ERR_ABORTED"). The entry left
// behind is taken off only on the player's own Back instead: when Back lands on it (coming
// back from a later page), or when Back from it lands on the same address, which would show
// nothing happening, we go back one more. The next modal opened on it reuses it.

const MARK = 'hunchModal';

const isMarked = (state: unknown) =>
  typeof state === 'object' && state !== null && MARK in state && state[MARK] === true;

const pushMark = () => history.pushState({ ...(history.state as object), [MARK]: true }, '');

/** Back taken off our entry ourselves: that popstate is not the player's Back. */
let ownPops = 0;

const takeOffOurEntry = () => {
  ownPops += 1;
  history.back();
};

/** The entry a modal closed without Back left behind, while the player is still on it. */
let leftover: { href: string; length: number } | undefined;

const rememberLeftover = () => {
  leftover = { href: location.href, length: history.length };
};

// Reloaded on an entry of ours: it is a leftover now.
if (typeof window !== 'undefined' && isMarked(history.state)) rememberLeftover();

/** Back from the leftover entry landed on the page under it: the same address, nothing seen. */
const isBackFromLeftover = () =>
  leftover !== undefined && leftover.href === location.href && leftover.length === history.length;

/** Ties the open modal of `store` to the browser's Back (mounted once, by the modal host). */
export function useBackClosesModal(store: ModalStore, isOpen: boolean) {
  const isClosedByBack = useRef(false);

  useEffect(() => {
    const onPop = () => {
      if (ownPops > 0) {
        ownPops -= 1;
        return;
      }
      const wasBackFromLeftover = isBackFromLeftover();
      leftover = undefined;
      const entry = store.getSnapshot();
      if (entry && !entry.isClosing) {
        if (store.back()) pushMark();
        else isClosedByBack.current = true;
      } else if (isMarked(history.state) || wasBackFromLeftover) {
        // Our entry reached from a later page, or left for its own page: one more step back.
        takeOffOurEntry();
      }
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [store]);

  useEffect(() => {
    if (!isOpen) return;
    isClosedByBack.current = false;
    leftover = undefined;
    if (!isMarked(history.state)) pushMark();
    return () => {
      if (isClosedByBack.current) return;
      // After the code that closed it has run: a navigation it made replaced our entry, or
      // the next modal of its flow keeps it; else the entry stays until the player's Back.
      setTimeout(() => {
        if (store.getSnapshot()?.isClosing === false || !isMarked(history.state)) return;
        rememberLeftover();
      }, 0);
    };
  }, [isOpen, store]);
}
