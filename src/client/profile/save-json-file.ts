// Saves a JSON document as a file the browser downloads (the data export), without a second
// request: the document is already here, so it becomes a Blob behind a temporary link.
export function saveJsonFile(fileName: string, data: unknown): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; a later revoke frees the memory without cutting it short.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
