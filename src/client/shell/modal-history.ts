import { useEffect, useRef } from 'react';
import type { ModalStore } from './modal-store';

// The phone's Back while a modal is open (a sheet on a phone): it closes the modal, or steps
// back inside a modal with steps (the bet form's Type step back to Details), instead of
// leaving the page under it. While a modal is open the browser's history holds one entry of
// ours above the page, same address, marked in its state; Back takes it off and we close (or
// step back and put one on again). A modal closed another way (X, Escape, done) takes its
// entry off itself, unless a navigation went on from it (the bet form's "replace" to the new
// bet); a marked entry left behind is skipped when Back reaches it.

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

/** Ties the open modal of `store` to the browser's Back (mounted once, by the modal host). */
export function useBackClosesModal(store: ModalStore, isOpen: boolean) {
  const isClosedByBack = useRef(false);

  useEffect(() => {
    const onPop = () => {
      if (ownPops > 0) {
        ownPops -= 1;
        return;
      }
      const entry = store.getSnapshot();
      if (entry && !entry.isClosing) {
        if (store.back()) pushMark();
        else isClosedByBack.current = true;
      } else if (isMarked(history.state)) {
        // An entry of ours that outlived its modal (a navigation pushed past it): skipped.
        takeOffOurEntry();
      }
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [store]);

  useEffect(() => {
    if (!isOpen) return;
    isClosedByBack.current = false;
    if (!isMarked(history.state)) pushMark();
    return () => {
      if (isClosedByBack.current) return;
      // After the code that closed it has run: a navigation it made replaced our entry, or
      // the next modal of its flow keeps it.
      setTimeout(() => {
        if (store.getSnapshot()?.isClosing === false || !isMarked(history.state)) return;
        takeOffOurEntry();
      }, 0);
    };
  }, [isOpen, store]);
}
