import { QRCodeSVG } from 'qrcode.react';
import styles from './qr-code.module.css';

/**
 * A link as a QR code, drawn here (no network): 250 px, error correction M (docs/groups-and-bets.md §2), dark
 * on a white frame whatever the theme, since scanners need it.
 */
export function QrCode({ value, title }: { value: string; title: string }) {
  return (
    <div className={styles.qr}>
      <QRCodeSVG value={value} size={250} level="M" marginSize={0} title={title} />
    </div>
  );
}
