import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { refusalText } from '../data/api-client';
import { forgetDraft, readDraft, saveDraft } from '../data/drafts';
import { useSession } from '../data/use-session';
import { useMyGroups } from '../groups/use-groups';
import { modalStore } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { DraftNote } from '../ui/draft-note';
import { canReachStep, Stepper } from '../ui/stepper';
import { createBet } from './bet-actions';
import { BetDetailsStep } from './bet-details-step';
import {
  baseInTiers,
  DETAILS_FIELDS,
  hasErrorIn,
  initialBetFormValues,
  toBetRequest,
  TYPE_FIELDS,
  validateBetForm,
  type BetFormField,
  type BetFormValues,
} from './bet-form-model';
import { BetTypeStep } from './bet-type-step';
import { useNow } from '../ui/use-now';
import { DEFAULT_STAKE_TIERS, isBaseInTiers, stakeTiersOf } from '../../domain/stakes';
import styles from './create-bet-form.module.css';

// The bet-creation modal's body (docs/groups-and-bets.md §2 "Bet creation: two-step stepper (Details,
// Type)"): the group defaults to the active one; "Bet Created!" then the new bet's page. What is
// typed is kept as the group's draft (data/drafts.ts) until sent or discarded, and offered again
// ("Draft restored") when the form opens for that group; the phone's Back on the Type step goes
// back to Details (shell/modal-history.ts).

const CREATE_BET_TEXT = {
  details: 'Details',
  type: 'Type',
  submit: 'Create Bet',
  submitting: 'Creating...',
  created: 'Bet Created!',
};

export function CreateBetForm({
  groupId,
  onDone,
  initial,
}: {
  groupId: number | null;
  onDone: () => void;
  /** "Same as last time": the form filled from a settled bet (bet-form-model.ts sameAsBefore). */
  initial?: BetFormValues | undefined;
}) {
  const { user } = useSession();
  // A group created offline is offered too: the bet waits in the outbox behind it.
  const groups = useMyGroups(user?.id);
  const navigate = useNavigate();
  const [draft] = useState(() =>
    groupId === null || initial ? undefined : readDraft<BetFormValues>(groupId, 'bet'),
  );
  const [isRestored, setIsRestored] = useState(draft !== undefined);
  const [isEdited, setIsEdited] = useState(false);
  const [typed, setValues] = useState<BetFormValues>(() => {
    const fresh = initial ?? initialBetFormValues(Date.now(), groupId);
    // A draft's closing time may have passed meanwhile: the default one then. A draft kept
    // before a field was added takes that field's default.
    if (!draft) return fresh;
    return Date.parse(draft.expiresAt) > Date.now()
      ? { ...fresh, ...draft }
      : { ...fresh, ...draft, expiresAt: fresh.expiresAt };
  });
  const [touched, setTouched] = useState<ReadonlySet<BetFormField>>(new Set());
  const [step, setStep] = useState(0);
  const [isSubmitting, setIsSubmitting] = useState(false);

  // The expiry must lie in the future: the clock is re-read every few seconds.
  const now = useNow(5000);
  const tiers = stakeTiersOf(groups?.find(({ group }) => group.id === typed.groupId)?.group);
  // The groups arrive after the form opens: a base their tiers lack is the same tier in their
  // points ($ of 1 becomes $ of 5).
  const values = useMemo(
    () =>
      isBaseInTiers(typed.baseWagerAmount, tiers)
        ? typed
        : {
            ...typed,
            baseWagerAmount: baseInTiers(typed.baseWagerAmount, DEFAULT_STAKE_TIERS, tiers),
          },
    [typed, tiers],
  );
  const errors = useMemo(() => validateBetForm(values, now, tiers), [values, now, tiers]);
  const steps = [
    { id: 'details', label: CREATE_BET_TEXT.details, isValid: !hasErrorIn(errors, DETAILS_FIELDS) },
    { id: 'type', label: CREATE_BET_TEXT.type, isValid: !hasErrorIn(errors, TYPE_FIELDS) },
  ];
  const touch = (...fields: BetFormField[]) =>
    setTouched((previous) => new Set([...previous, ...fields]));
  const change = (patch: Partial<BetFormValues>) => {
    setIsEdited(true);
    setValues({ ...values, ...patch });
  };
  useEffect(() => {
    if (!isEdited || groupId === null) return;
    // Only words are worth offering again: a form emptied by hand leaves no draft.
    const hasWords = [values.title, values.description, ...values.options].some((text) =>
      text.trim(),
    );
    if (hasWords) saveDraft(groupId, 'bet', values);
    else forgetDraft(groupId, 'bet');
  }, [isEdited, groupId, values]);
  const discardDraft = () => {
    if (groupId !== null) forgetDraft(groupId, 'bet');
    setIsRestored(false);
    setIsEdited(false);
    setTouched(new Set());
    setStep(0);
    setValues(initialBetFormValues(Date.now(), groupId));
  };
  useEffect(() => {
    if (step === 0) return;
    modalStore.setBackStep(() => setStep(step - 1));
    return () => modalStore.setBackStep(null);
  }, [step]);

  const submit = async () => {
    setIsSubmitting(true);
    try {
      const bet = await createBet(toBetRequest(values));
      if (groupId !== null) forgetDraft(groupId, 'bet');
      setIsEdited(false);
      onDone();
      // In place of the modal's own history entry: Back from there returns to the page under it.
      if (bet.pendingWriteId) {
        // Queued offline (the outbox said so): the pending bet shows in its group's list.
        navigate(`/group/${bet.groupId}/bets`, { replace: true });
        return;
      }
      toast.success(CREATE_BET_TEXT.created);
      navigate(`/bets/${bet.id}`, { replace: true });
    } catch (error) {
      toast.error(refusalText(error));
      setIsSubmitting(false);
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={(event) => event.preventDefault()}>
      {isRestored && <DraftNote onDiscard={discardDraft} />}
      <Stepper
        steps={steps}
        current={step}
        onStepChange={(index) => canReachStep(steps, index) && setStep(index)}
        onBlocked={(index) => touch(...(index === 0 ? DETAILS_FIELDS : TYPE_FIELDS))}
        onSubmit={() => void submit()}
        isSubmitting={isSubmitting}
        submitLabel={CREATE_BET_TEXT.submit}
        submittingLabel={CREATE_BET_TEXT.submitting}
      >
        {step === 0 ? (
          <BetDetailsStep
            values={values}
            errors={errors}
            touched={touched}
            onChange={change}
            onTouch={(field) => touch(field)}
            groups={groups ?? []}
            now={now}
          />
        ) : (
          <BetTypeStep
            values={values}
            errors={errors}
            touched={touched}
            onChange={change}
            onTouch={(field) => touch(field)}
          />
        )}
      </Stepper>
    </form>
  );
}
