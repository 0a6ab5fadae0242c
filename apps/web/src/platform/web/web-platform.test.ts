import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebPlatform } from './web-platform';

const platform = createWebPlatform(() => () => undefined);

/** The link the platform clicks to download, caught as it is clicked. */
function catchDownload(): Promise<HTMLAnchorElement> {
  return new Promise((resolve) => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      resolve(this);
    });
  });
}

describe('the web platform', () => {
  afterEach(() => vi.restoreAllMocks());

  it('downloads text as a file of that text, not as a link to it', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:till/1';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked = catchDownload();
    const saved = await platform.saveFile('till-recovery-codes.txt', { text: 'ab12-cd34\n' });
    const a = await clicked;
    expect(a.getAttribute('href')).toBe('blob:till/1');
    expect(a.download).toBe('till-recovery-codes.txt');
    expect(await blobs[0]?.text()).toBe('ab12-cd34\n');
    expect(blobs[0]?.type).toMatch(/^text\/plain/);
    expect(saved).toEqual({ name: 'till-recovery-codes.txt', where: 'downloads' });
  });

  it("downloads a link's file from its address", async () => {
    const objectUrl = vi.spyOn(URL, 'createObjectURL');
    const clicked = catchDownload();
    await platform.saveFile('photo.jpg', { url: '/api/files/download/f1' });
    expect((await clicked).getAttribute('href')).toBe('/api/files/download/f1');
    expect(objectUrl).not.toHaveBeenCalled();
  });
});
