import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ModalHost } from '../../../src/client/shell/modal-host';
import {
  createModalStore,
  MODAL_ANIMATION_MS,
  type ModalStore,
} from '../../../src/client/shell/modal-store';

let store: ModalStore;

function renderWithTrigger() {
  render(
    <>
      <button
        type="button"
        onClick={() =>
          store.open({ title: 'Edit Profile', render: (close) => <Body close={close} /> })
        }
      >
        Open
      </button>
      <ModalHost store={store} />
    </>,
  );
  const trigger = screen.getByRole('button', { name: 'Open' });
  trigger.focus();
  fireEvent.click(trigger);
  return trigger;
}

function Body({ close }: { close: () => void }) {
  return (
    <>
      <label>
        Name <input />
      </label>
      <button type="button" onClick={close}>
        Done
      </button>
    </>
  );
}

const finishAnimation = () =>
  act(() => {
    vi.advanceTimersByTime(MODAL_ANIMATION_MS);
  });

beforeEach(() => {
  vi.useFakeTimers();
  store = createModalStore();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  document.body.style.overflow = '';
});

describe('modal host (docs/accounts-and-shell.md §2)', () => {
  it('opens an aria-modal dialog named by its title, moves focus in and locks page scroll', () => {
    renderWithTrigger();
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('closes on Escape after its exit animation and gives focus back', () => {
    const trigger = renderWithTrigger();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.getByRole('dialog').closest('[data-state]')?.getAttribute('data-state')).toBe(
      'closing',
    );
    finishAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(document.body.style.overflow).toBe('');
  });

  it('closes on a backdrop click', () => {
    renderWithTrigger();
    fireEvent.click(screen.getByTestId('modal-backdrop'));
    finishAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes with its close button and from inside its content', () => {
    renderWithTrigger();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    finishAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    finishAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows one modal at a time: opening another replaces it with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const trigger = renderWithTrigger();
    act(() => {
      store.open({
        title: 'Upgrade to a Full Account',
        render: () => <button type="button">Complete Registration</button>,
      });
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Upgrade to a Full Account' })).toBeTruthy();

    fireEvent.keyDown(document, { key: 'Escape' });
    finishAnimation();
    // focus returns to what opened the first modal, not into the replaced one
    expect(document.activeElement).toBe(trigger);
    warn.mockRestore();
  });

  it('keeps Tab inside the dialog', () => {
    renderWithTrigger();
    const done = screen.getByRole('button', { name: 'Done' });
    const close = screen.getByRole('button', { name: 'Close' });
    done.focus();
    fireEvent.keyDown(done, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(done);
  });
});

describe("the browser's Back (a phone's) while a modal is open", () => {
  const pressBack = () =>
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    });

  it('closes the modal instead of leaving the page', () => {
    renderWithTrigger();
    // One entry of ours above the page, for Back to take off.
    expect(history.state).toMatchObject({ hunchModal: true });
    pressBack();
    finishAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('steps back inside a modal with steps first, and closes it on the next Back', () => {
    renderWithTrigger();
    const stepBack = vi.fn();
    store.setBackStep(stepBack);
    pressBack();
    expect(stepBack).toHaveBeenCalledOnce();
    expect(screen.getByRole('dialog', { name: 'Edit Profile' })).toBeTruthy();
    // The entry Back took off is put on again, for the next Back.
    expect(history.state).toMatchObject({ hunchModal: true });
    store.setBackStep(null);
    pressBack();
    finishAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
