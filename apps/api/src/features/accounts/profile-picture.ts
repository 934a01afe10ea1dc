import { PROFILE_PICTURE_MAX_BYTES, PROFILE_PICTURE_TYPES } from '@rollcall/contracts';
import { DomainError } from '@rollcall/domain';

/** The first bytes each accepted type must start with (WebP: 'RIFF' then 'WEBP' at offset 8). */
const MAGIC: Record<(typeof PROFILE_PICTURE_TYPES)[number], (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+={0,2})$/i;

const refuse = (message: string) => new DomainError('account.picture_invalid', message, 'picture');

/**
 * A picture is a base64 data URL of PNG, JPEG, WebP or GIF whose bytes really are that type, at most
 * 512 KB decoded. SVG is refused: it can carry scripts. Returns the data URL with a lower-cased type.
 */
export function checkProfilePicture(dataUrl: string): string {
  const match = DATA_URL.exec(dataUrl.trim());
  if (!match) throw refuse('Picture must be a base64 data URL');
  const type = match[1].toLowerCase() as (typeof PROFILE_PICTURE_TYPES)[number];
  if (!(PROFILE_PICTURE_TYPES as readonly string[]).includes(type)) throw refuse('Picture must be a PNG, JPEG, WebP or GIF image');
  const base64 = match[2];
  // decoded size from the text length, before decoding anything large
  const size = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  if (size > PROFILE_PICTURE_MAX_BYTES) throw refuse(`Picture may be at most ${PROFILE_PICTURE_MAX_BYTES / 1024} KB`);
  const bytes = Buffer.from(base64, 'base64');
  if (!MAGIC[type](bytes)) throw refuse(`Picture content is not a ${type.slice('image/'.length).toUpperCase()} image`);
  return `data:${type};base64,${base64}`;
}
