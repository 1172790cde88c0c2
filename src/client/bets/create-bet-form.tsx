import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { refusalText } from '../data/api-client';
import { useSession } from '../data/use-session';
import { useMyGroups } from '../groups/use-groups';
import { toast } from '../shell/toast-store';
import { canReachStep, Stepper } from '../ui/stepper';
import { createBet } from './bet-actions';
import { BetDetailsStep } from './bet-details-step';
import {
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
import styles from './create-bet-form.module.css';

// The bet-creation modal's body (docs/groups-and-bets.md §2 "Bet creation: two-step stepper (Details,
// Type)"): the group defaults to the active one; "Bet Created!" then the new bet's page.

const CREATE_BET_TEXT = {
  details: 'Details',
  type: 'Type',
  submit: 'Create Bet',
  submitting: 'Creating...',
  created: 'Bet Created!',
};

export function CreateBetForm({ groupId, onDone }: { groupId: number | null; onDone: () => void }) {
  const { user } = useSession();
  // A group created offline is offered too: the bet waits in the outbox behind it.
  const groups = useMyGroups(user?.id);
  const navigate = useNavigate();
  const [values, setValues] = useState<BetFormValues>(() =>
    initialBetFormValues(Date.now(), groupId),
  );
  const [touched, setTouched] = useState<ReadonlySet<BetFormField>>(new Set());
  const [step, setStep] = useState(0);
  const [isSubmitting, setIsSubmitting] = useState(false);

  // The expiry must lie in the future: the clock is re-read every few seconds.
  const now = useNow(5000);
  const errors = useMemo(() => validateBetForm(values, now), [values, now]);
  const steps = [
    { id: 'details', label: CREATE_BET_TEXT.details, isValid: !hasErrorIn(errors, DETAILS_FIELDS) },
    { id: 'type', label: CREATE_BET_TEXT.type, isValid: !hasErrorIn(errors, TYPE_FIELDS) },
  ];
  const touch = (...fields: BetFormField[]) =>
    setTouched((previous) => new Set([...previous, ...fields]));
  const change = (patch: Partial<BetFormValues>) =>
    setValues((previous) => ({ ...previous, ...patch }));

  const submit = async () => {
    setIsSubmitting(true);
    try {
      const bet = await createBet(toBetRequest(values));
      onDone();
      if (bet.pendingWriteId) {
        // Queued offline (the outbox said so): the pending bet shows in its group's list.
        navigate(`/group/${bet.groupId}/bets`);
        return;
      }
      toast.success(CREATE_BET_TEXT.created);
      navigate(`/bets/${bet.id}`);
    } catch (error) {
      toast.error(refusalText(error));
      setIsSubmitting(false);
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={(event) => event.preventDefault()}>
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
