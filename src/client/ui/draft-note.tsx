import { Button } from './button';
import styles from './draft-note.module.css';
import { FormAlert } from './form-alert';

// Above a form that came back filled from a draft (data/drafts.ts): says so, with a way to
// start again.

export const DRAFT_TEXT = { restored: 'Draft restored', discard: 'Discard draft' };

/** "Draft restored" and "Discard draft". */
export function DraftNote({ onDiscard }: { onDiscard: () => void }) {
  return (
    <div className={styles.note}>
      <FormAlert tone="info">
        <span className={styles.row}>
          {DRAFT_TEXT.restored}
          <Button size="small" variant="ghost" onClick={onDiscard}>
            {DRAFT_TEXT.discard}
          </Button>
        </span>
      </FormAlert>
    </div>
  );
}
