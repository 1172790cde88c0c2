import { avatarInitials, type AvatarPerson } from '../../domain/avatar';
import { PROFILE_PICTURES_ENABLED } from '../../domain/constants';
import styles from './avatar.module.css';

interface AvatarProps {
  /** null or undefined: an unknown user, shown as "?". */
  user:
    (AvatarPerson & { displayName?: string; profilePictureUrl?: string | null }) | null | undefined;
  size?: 'small' | 'medium' | 'large';
  shape?: 'circle' | 'square';
  className?: string;
}

// docs/accounts-and-shell.md §2: a profile picture only when the feature flag is on (it is off), else initials.
export function Avatar({ user, size = 'medium', shape = 'circle', className }: AvatarProps) {
  const classes = [styles.avatar, styles[size], styles[shape], className].filter(Boolean).join(' ');
  if (PROFILE_PICTURES_ENABLED && user?.profilePictureUrl) {
    return <img className={classes} src={user.profilePictureUrl} alt="" />;
  }
  return (
    <span className={classes} aria-hidden="true">
      {avatarInitials(user)}
    </span>
  );
}
