export const settingsCopy = {
  intro: "Your account details and how the site behaves for you.",
  darkMode: "Dark Mode",
  darkModeHelp: "Switches the site between its dark and light theme right away. The choice is kept in this browser.",
  shortcuts: "Keyboard Shortcuts",
  shortcutsHelp:
    "Ctrl/⌘ + a letter opens a page and Space lists every shortcut. Off, every key does what your browser does (Ctrl/⌘ + F finds in the page). Kept in this browser.",
  emailNotifications: "Email Notifications",
  emailNotificationsHelp:
    "Kept in this browser. We do not send account e-mails yet; when we do, this choice will decide whether you get them.",
  newsletter: "Newsletter",
  newsletterHelp: "Subscribes your account e-mail to our newsletter, or unsubscribes it, when you save.",
  alerts: "Investor alerts",
  alertsHelp:
    "One e-mail for each news item, document or event the group publishes, to your account e-mail, when you save.",
  eventReminders: "Event reminders",
  eventRemindersHelp:
    "With investor alerts on: one e-mail the day before each of the group's events, with its calendar file.",
  newsletterSignedOut: "Sign in to manage your newsletter subscription here.",
  newsletterUnverified:
    "Your sign-in provider has not confirmed that this e-mail address is yours, so it cannot be subscribed from here. The newsletter form at the bottom of the page works for any address.",
  signOutEverywhere: "Sign out everywhere",
  signOutEverywhereHelp: "Ends every session of your account, on this device and all others.",
  twoFactor: "Two-Factor Authentication",
  twoFactorHelp: "Sign-in runs through our identity provider; ask us to turn on a second factor for your account.",
  needsMember: "This needs a signed-in member: you are not signed in.",
  saveSignedOut: "Your display choices apply at once; saving the newsletter choice needs a signed-in member.",
  deleteAccount: "Delete Account",
  deleteAccountHelp:
    "Deletes your account, your newsletter subscription and your messages to us, and signs you out everywhere.",
  downloadData: "Download my data",
  downloadDataHelp: "Everything we store about you, as one JSON file.",
} as const;
