// The one address the terms and the privacy policy give for questions and requests.
// A product decision (the spec shows none): change it here and both pages follow.
export const CONTACT_EMAIL = 'hello@hunch.app';

// The date the terms and the privacy policy were last changed. Update it with every change;
// a material change also needs 30 days' notice before it applies (docs/accounts-and-shell.md §9).
export const LEGAL_LAST_UPDATED = '23 November 2026';
