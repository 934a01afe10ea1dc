interface NamedAccount {
  first_name: string;
  last_name: string;
}

export function fullName(account: NamedAccount): string {
  return [account.first_name, account.last_name].filter(Boolean).join(' ');
}

export function initials(account: NamedAccount): string {
  const letters = [account.first_name, account.last_name].map((part) => part.trim().charAt(0)).join('');
  return letters.toUpperCase() || '?';
}
