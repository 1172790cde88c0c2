import { saveFile } from '../ui/save-file';

// Saves a JSON document as a file the browser downloads (the data export).
export function saveJsonFile(fileName: string, data: unknown): void {
  saveFile(fileName, new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
}
