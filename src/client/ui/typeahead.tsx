import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { FieldError } from './field-error';
import fieldStyles from './field.module.css';
import styles from './listbox.module.css';

// The typeahead of docs/groups-and-bets.md §4: a search starts once the text has 3 characters and the
// typing has paused for 300 ms; the list shows "Loading...", "No results" or "Error loading
// options". An ARIA combobox: arrows move, Enter chooses, Escape closes.

const TYPEAHEAD_TEXT = {
  loading: 'Loading...',
  noResults: 'No results',
  error: 'Error loading options',
};

interface TypeaheadProps<Option> {
  label: string;
  placeholder?: string;
  /** Finds the options for a query; the signal aborts a search overtaken by newer typing. */
  loadOptions: (query: string, signal: AbortSignal) => Promise<Option[]>;
  getOptionKey: (option: Option) => string | number;
  getOptionLabel: (option: Option) => string;
  renderOption?: (option: Option) => ReactNode;
  /** Called with the chosen option, and with null once the text no longer matches it. */
  onSelect: (option: Option | null) => void;
  minLength?: number;
  debounceMs?: number;
  hint?: ReactNode;
  error?: string;
}

type Status = 'idle' | 'loading' | 'ready' | 'error';

export function Typeahead<Option>({
  label,
  placeholder,
  loadOptions,
  getOptionKey,
  getOptionLabel,
  renderOption,
  onSelect,
  minLength = 3,
  debounceMs = 300,
  hint,
  error,
}: TypeaheadProps<Option>) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [options, setOptions] = useState<Option[]>([]);
  const [isOpen, setIsOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  const loadRef = useRef(loadOptions);

  useEffect(() => {
    loadRef.current = loadOptions;
  });

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const search = (query: string) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setStatus('loading');
    setIsOpen(true);
    loadRef.current(query, controller.signal).then(
      (found) => {
        if (controller.signal.aborted) return;
        setOptions(found);
        setActiveIndex(found.length > 0 ? 0 : -1);
        setStatus('ready');
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Typeahead search failed', failure);
        setOptions([]);
        setStatus('error');
      },
    );
  };

  const onChange = (value: string) => {
    setText(value);
    onSelect(null);
    clearTimeout(timer.current);
    inFlight.current?.abort();
    if (value.trim().length < minLength) {
      setStatus('idle');
      setOptions([]);
      setIsOpen(false);
      return;
    }
    timer.current = setTimeout(() => search(value.trim()), debounceMs);
  };

  const choose = (option: Option) => {
    setText(getOptionLabel(option));
    setIsOpen(false);
    onSelect(option);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      setIsOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((index) => (index + step + options.length) % options.length);
    } else if (event.key === 'Enter' && isOpen && status === 'ready' && options[activeIndex]) {
      event.preventDefault();
      choose(options[activeIndex]);
    } else if (event.key === 'Escape' && isOpen) {
      // Close the list, not the modal around it.
      event.preventDefault();
      event.stopPropagation();
      event.nativeEvent.stopImmediatePropagation();
      setIsOpen(false);
    }
  };

  const hasList = isOpen && status === 'ready' && options.length > 0;
  const message =
    status === 'loading'
      ? TYPEAHEAD_TEXT.loading
      : status === 'error'
        ? TYPEAHEAD_TEXT.error
        : status === 'ready' && options.length === 0
          ? TYPEAHEAD_TEXT.noResults
          : null;
  const describedBy =
    [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <div className={styles.anchor}>
        <Search size={18} aria-hidden="true" className={styles.leadingIcon} />
        <input
          id={id}
          type="text"
          role="combobox"
          className={`${fieldStyles.input} ${styles.withIcon}`}
          placeholder={placeholder}
          value={text}
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={hasList}
          aria-controls={hasList ? listId : undefined}
          aria-activedescendant={
            hasList && activeIndex >= 0 ? `${listId}-${activeIndex}` : undefined
          }
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => setIsOpen(false)}
          onFocus={() => status !== 'idle' && setIsOpen(true)}
        />
        {isOpen && (
          <div className={styles.popup}>
            {message && (
              <p
                className={`${styles.message} ${status === 'error' ? styles.messageError : ''}`}
                role="status"
              >
                {message}
              </p>
            )}
            {hasList && (
              <ul id={listId} role="listbox" aria-label={label} className={styles.list}>
                {options.map((option, index) => (
                  <li
                    key={getOptionKey(option)}
                    id={`${listId}-${index}`}
                    role="option"
                    aria-selected={index === activeIndex}
                    className={styles.option}
                    // mousedown, not click: the input keeps focus and its blur does not close the list first
                    onMouseDown={(event) => {
                      event.preventDefault();
                      choose(option);
                    }}
                    onMouseEnter={() => setActiveIndex(index)}
                  >
                    {renderOption ? renderOption(option) : getOptionLabel(option)}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {hint && (
        <div id={`${id}-hint`} className={fieldStyles.hint}>
          {hint}
        </div>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
