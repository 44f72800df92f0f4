import { http } from '../../api/client';

/** Downloads a file through the API client (the session travels in its header, not the address). */
export async function downloadWithSession(url: string, fileName: string) {
  const res = await http.get<Blob>(url, { responseType: 'blob', timeout: 0 });
  saveBlob(res.data, fileName);
}

/** Hands a file the app received to the browser to save as `fileName`. */
export function saveBlob(blob: Blob, fileName: string) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
