import { ChevronDown, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import fieldStyles from './field.module.css';
import styles from './listbox.module.css';

// The searchable dropdown of docs/groups-and-bets.md §2 and §4 ("Async dropdown"): its options load
// asynchronously; while loading it reads "Loading...", a failure shows the error with a Retry
// button, no options at all leaves it read-only with "No options", and once open a search box
// filters the list ("No results" when nothing matches). The list is at most 15rem tall.

const DROPDOWN_TEXT = {
  loading: 'Loading...',
  noOptions: 'No options',
  noResults: 'No results',
  retry: 'Retry',
  error: 'Error loading options',
  placeholder: 'Select...',
  search: 'Search...',
};

interface SearchableDropdownProps<Option> {
  label: string;
  loadOptions: () => Promise<Option[]>;
  getOptionKey: (option: Option) => string | number;
  getOptionLabel: (option: Option) => string;
  value: string | number | null;
  onChange: (option: Option) => void;
  placeholder?: string;
}

type Load<Option> =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; options: Option[] };

export function SearchableDropdown<T>({
  label,
  loadOptions,
  getOptionKey,
  getOptionLabel,
  value,
  onChange,
  placeholder = DROPDOWN_TEXT.placeholder,
}: SearchableDropdownProps<T>) {
  const id = useId();
  const listId = `${id}-list`;
  const [load, setLoad] = useState<Load<T>>({ status: 'loading' });
  const [isOpen, setIsOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const loadRef = useRef(loadOptions);

  useEffect(() => {
    loadRef.current = loadOptions;
  });

  // Loads the options; the first load starts in the loading state, a retry sets it again.
  const fetchOptions = useCallback(() => {
    let isCurrent = true;
    loadRef.current().then(
      (options) => isCurrent && setLoad({ status: 'ready', options }),
      (failure: unknown) => {
        console.warn('Loading the options failed', failure);
        if (isCurrent) setLoad({ status: 'error' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  useEffect(() => fetchOptions(), [fetchOptions]);

  const retry = () => {
    setLoad({ status: 'loading' });
    fetchOptions();
  };

  const options = load.status === 'ready' ? load.options : [];
  const needle = query.trim().toLowerCase();
  const filtered = needle
    ? options.filter((option) => getOptionLabel(option).toLowerCase().includes(needle))
    : options;
  const selected = options.find((option) => getOptionKey(option) === value);

  const close = () => {
    setIsOpen(false);
    setQuery('');
    triggerRef.current?.focus();
  };

  const choose = (option: T) => {
    onChange(option);
    close();
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (filtered.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((index) => (index + step + filtered.length) % filtered.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = filtered[activeIndex];
      if (option !== undefined) choose(option);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  if (load.status === 'error') {
    return (
      <div className={fieldStyles.field}>
        <span className={fieldStyles.label}>{label}</span>
        <div className={styles.errorRow} role="alert">
          <span>{DROPDOWN_TEXT.error}</span>
          <button
            type="button"
            className={fieldStyles.input}
            style={{
              width: 'auto',
              display: 'inline-flex',
              alignItems: 'center',
              gap: 6,
              cursor: 'pointer',
            }}
            onClick={retry}
          >
            <RotateCw size={16} aria-hidden="true" />
            {DROPDOWN_TEXT.retry}
          </button>
        </div>
      </div>
    );
  }

  const isEmpty = load.status === 'ready' && options.length === 0;
  const triggerText =
    load.status === 'loading'
      ? DROPDOWN_TEXT.loading
      : isEmpty
        ? DROPDOWN_TEXT.noOptions
        : selected
          ? getOptionLabel(selected)
          : placeholder;

  return (
    <div className={fieldStyles.field}>
      <span id={`${id}-label`} className={fieldStyles.label}>
        {label}
      </span>
      <div className={styles.anchor}>
        <button
          ref={triggerRef}
          id={id}
          type="button"
          className={`${fieldStyles.input} ${styles.trigger}`}
          aria-haspopup="listbox"
          aria-expanded={isOpen}
          aria-labelledby={`${id}-label ${id}`}
          disabled={load.status === 'loading' || isEmpty}
          onClick={() => {
            setActiveIndex(0);
            setIsOpen((open) => !open);
          }}
        >
          <span className={selected ? undefined : styles.placeholder}>{triggerText}</span>
          <ChevronDown size={18} aria-hidden="true" />
        </button>
        {isOpen && (
          <div className={styles.popup}>
            <div className={styles.searchBox}>
              <input
                type="search"
                className={fieldStyles.input}
                placeholder={DROPDOWN_TEXT.search}
                aria-label={`Search ${label}`}
                role="combobox"
                aria-expanded
                aria-controls={listId}
                aria-autocomplete="list"
                aria-activedescendant={
                  filtered[activeIndex] !== undefined ? `${listId}-${activeIndex}` : undefined
                }
                autoFocus
                value={query}
                onChange={(event) => {
                  setQuery(event.target.value);
                  setActiveIndex(0);
                }}
                onKeyDown={onSearchKeyDown}
              />
            </div>
            {filtered.length === 0 ? (
              <p className={styles.message} role="status">
                {DROPDOWN_TEXT.noResults}
              </p>
            ) : null}
            <ul
              id={listId}
              role="listbox"
              aria-label={label}
              className={styles.list}
              hidden={filtered.length === 0}
            >
              {filtered.map((option, index) => (
                <li
                  key={getOptionKey(option)}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === activeIndex}
                  className={styles.option}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                  onMouseEnter={() => setActiveIndex(index)}
                >
                  {getOptionLabel(option)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}
