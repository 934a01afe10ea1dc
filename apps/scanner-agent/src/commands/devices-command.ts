import { type Writable } from 'node:stream';
import { hex4, isKeyboardInterface, loadNodeHid, type HidModule } from '../hid/hid-driver';

/**
 * `rollcall-agent devices`: the HID devices this machine shows, with what the configuration needs
 * to pick one (vendor:product id, path). Keyboard interfaces are marked: a keyboard-wedge reader is
 * one, and so is the real keyboard, which must not be configured by mistake.
 */
export async function listDevices(stdout: Writable, hid?: HidModule): Promise<number> {
  const module = hid ?? (await loadNodeHid('raw'));
  const devices = await module.devicesAsync();
  if (devices.length === 0) {
    stdout.write('No HID devices visible. Is the reader plugged in, and may this user open it? (infra/udev/99-rollcall-readers.rules)\n');
    return 0;
  }
  stdout.write('vendor:product  interface  kind      path  (manufacturer product)\n');
  for (const device of devices) {
    const kind = isKeyboardInterface(device) ? 'keyboard' : 'raw';
    const name = [device.manufacturer, device.product].filter(Boolean).join(' ');
    stdout.write(`${hex4(device.vendorId)}:${hex4(device.productId)}       ${String(device.interface).padEnd(9)}  ${kind.padEnd(8)}  ${device.path ?? '-'}${name ? `  (${name})` : ''}\n`);
  }
  stdout.write('\nConfigure ROLLCALL_AGENT_DRIVER=hid-keyboard (keyboard-wedge readers) or hid-raw, and ROLLCALL_AGENT_DEVICE_VENDOR_ID / _PRODUCT_ID (or _PATH).\n');
  return 0;
}
