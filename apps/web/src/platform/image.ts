/** The largest size with the same proportions that fits inside the box (never enlarged). */
export function fitInside(width: number, height: number, maxWidth: number, maxHeight: number) {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Scales an image file down in the browser so that uploads stay small. Images already inside the
 * box are returned as they are, so that their quality and format are kept.
 */
export async function scaleImage(file: File, maxWidth: number, maxHeight: number): Promise<File> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = fitInside(bitmap.width, bitmap.height, maxWidth, maxHeight);
    if (size.width === bitmap.width && size.height === bitmap.height) return file;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return file;
    ctx.drawImage(bitmap, 0, 0, size.width, size.height);
    const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.9));
    if (!blob) return file;
    const base = file.name.replace(/\.[^.]+$/, '') || 'image';
    return new File([blob], `${base}.${type === 'image/png' ? 'png' : 'jpg'}`, { type });
  } finally {
    bitmap.close();
  }
}

/** Opens the browser's file chooser for one image; resolves null when the user cancels. */
export function chooseImageFile(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = 'image/*';
    input.addEventListener('change', () => resolve(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => resolve(null), { once: true });
    input.click();
  });
}
