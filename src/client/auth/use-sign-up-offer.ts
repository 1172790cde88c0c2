import { useEffect, useState } from 'react';
import { pendingInvite } from '../../domain/return-url';
import {
  OPEN_REGISTRATION,
  signUpRefusal,
  type NewAccountKind,
  type RegistrationSettings,
  type SignUpRefusal,
} from '../../domain/registration';
import { fetchRegistrationSettings, type SignUpInvite } from '../data/accounts-api';

/** The server's answer, asked once per page load (the operator changes it with a restart). */
let known: RegistrationSettings | undefined;
let asking: Promise<RegistrationSettings> | undefined;

function askOnce(): Promise<RegistrationSettings> {
  asking ??= fetchRegistrationSettings().then(
    (settings) => (known = settings),
    (error: unknown) => {
      // Offline or unreachable: offer every way in; the server still decides.
      console.warn('The registration settings could not be read', error);
      asking = undefined;
      return OPEN_REGISTRATION;
    },
  );
  return asking;
}

export interface SignUpOffer {
  /** Why a new account of each kind would be refused here (null: it is offered). */
  refusal: Record<NewAccountKind, SignUpRefusal | null>;
  /** The invite the visitor came through, sent with a sign-up. */
  invite: SignUpInvite | null;
}

/**
 * What the account screens offer: only the ways in the server accepts (src/domain/registration.ts),
 * with the invite of the screen's return URL counted as valid (the server checks its code).
 */
export function useSignUpOffer(search: string): SignUpOffer {
  const [settings, setSettings] = useState<RegistrationSettings>(known ?? OPEN_REGISTRATION);
  useEffect(() => {
    if (known) return;
    let isCurrent = true;
    void askOnce().then((answer) => {
      if (isCurrent) setSettings(answer);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  const invite = pendingInvite(search);
  const hasInvite = invite !== null;
  return {
    refusal: {
      account: signUpRefusal(settings, 'account', hasInvite),
      guest: signUpRefusal(settings, 'guest', hasInvite),
    },
    invite,
  };
}
