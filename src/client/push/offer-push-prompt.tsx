import { sessionStore } from '../data/session';
import { openModal, replaceModal } from '../shell/modal-store';
import { PUSH_PROMPT_TITLE, PushPrompt } from './push-prompt';
import { shouldOfferPushPrompt } from './push-prompt-decision';
import { pushService } from './push-session';

/**
 * After a join (spec 02 §4): when the status check says so, the open join modal becomes the
 * "Enable group updates" prompt (or, for a join made on the group page, the prompt opens).
 * Resolves true when the prompt is showing.
 */
export async function offerPushPrompt({ isModalOpen }: { isModalOpen: boolean }): Promise<boolean> {
  const shouldOffer = await shouldOfferPushPrompt({
    isSupported: pushService.isSupported(),
    isSignedIn: sessionStore.getAccessToken() !== null,
    permission: pushService.permission(),
    checkStatus: (signal) => pushService.status(signal),
  });
  if (!shouldOffer) return false;
  (isModalOpen ? replaceModal : openModal)({
    title: PUSH_PROMPT_TITLE,
    size: 'narrow',
    render: (close) => <PushPrompt onDone={close} />,
  });
  return true;
}
