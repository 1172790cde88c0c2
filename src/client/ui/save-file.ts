// Saves a Blob as a file the browser downloads (the data export, a share card), without a
// second request: the bytes are already here, so they go behind a temporary link.
export function saveFile(fileName: string, blob: Blob): void {
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
