import { imageSizeFromFile } from 'image-size/fromFile';

/** EXIF orientations that turn the picture a quarter: its displayed width is the stored height. */
const QUARTER_TURNS = new Set([5, 6, 7, 8]);

/** Pixel size of an image file as it is displayed; `{}` for what image-size cannot measure (PDF, a broken file). */
export async function imageDimensions(filePath: string): Promise<{ width?: number; height?: number }> {
  try {
    const size = await imageSizeFromFile(filePath);
    if (!size.width || !size.height) return {};
    return size.orientation && QUARTER_TURNS.has(size.orientation)
      ? { width: size.height, height: size.width }
      : { width: size.width, height: size.height };
  } catch {
    return {};
  }
}
