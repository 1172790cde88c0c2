import type { ReactNode } from 'react';
import { Button } from './button';
import styles from './stepper.module.css';

// docs/groups-and-bets.md §4, §5 "Stepper": step tabs, Back, Next, Submit on the last step; a step is
// reachable only if every earlier step is valid; Next and Submit are disabled while the
// current step is invalid. The form owns the values and marks fields touched when a
// disabled-looking Next is pressed (it stays focusable through aria-disabled for that).

const STEPPER_TEXT = { back: 'Back', next: 'Next', submit: 'Submit' };

export interface StepperStep {
  id: string;
  label: string;
  isValid: boolean;
}

/** Whether step `index` may be shown: every step before it is valid. */
export function canReachStep(
  steps: readonly Pick<StepperStep, 'isValid'>[],
  index: number,
): boolean {
  return index >= 0 && index < steps.length && steps.slice(0, index).every((step) => step.isValid);
}

interface StepperProps {
  steps: readonly StepperStep[];
  current: number;
  onStepChange: (index: number) => void;
  /** Pressing Next or Submit on an invalid step: the form shows every error of that step. */
  onBlocked: (index: number) => void;
  onSubmit: () => void;
  isSubmitting?: boolean;
  submitLabel?: string;
  submittingLabel?: string;
  children: ReactNode;
}

export function Stepper({
  steps,
  current,
  onStepChange,
  onBlocked,
  onSubmit,
  isSubmitting,
  submitLabel = STEPPER_TEXT.submit,
  submittingLabel,
  children,
}: StepperProps) {
  const step = steps[current];
  const isLast = current === steps.length - 1;
  const isValid = step?.isValid ?? false;
  const advance = () => {
    if (!isValid) return onBlocked(current);
    if (isLast) onSubmit();
    else onStepChange(current + 1);
  };
  return (
    <div className={styles.stepper}>
      <div role="tablist" aria-label="Steps" className={styles.tabs}>
        {steps.map((item, index) => {
          const isReachable = canReachStep(steps, index);
          return (
            <button
              key={item.id}
              type="button"
              role="tab"
              id={`step-tab-${item.id}`}
              aria-selected={index === current}
              aria-controls={`step-panel-${item.id}`}
              disabled={!isReachable || isSubmitting}
              className={styles.tab}
              onClick={() => onStepChange(index)}
            >
              <span className={styles.number} aria-hidden="true">
                {index + 1}
              </span>
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`step-panel-${step?.id}`}
        aria-labelledby={`step-tab-${step?.id}`}
        className={styles.panel}
      >
        {children}
      </div>
      <div className={styles.actions}>
        {current > 0 && (
          <Button
            variant="secondary"
            onClick={() => onStepChange(current - 1)}
            disabled={isSubmitting}
          >
            {STEPPER_TEXT.back}
          </Button>
        )}
        <Button
          className={styles.primary}
          aria-disabled={!isValid || undefined}
          data-invalid={!isValid || undefined}
          isLoading={isSubmitting}
          loadingText={submittingLabel}
          onClick={advance}
        >
          {isLast ? submitLabel : STEPPER_TEXT.next}
        </Button>
      </div>
    </div>
  );
}
