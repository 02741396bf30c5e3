export const legalCopy = {
  lastUpdated: "October 21, 2025",
  sections: [
    {
      id: "terms",
      heading: "Terms of Service",
      paragraphs: [
        "By using this website you agree to these terms. The site presents AFX Holding Group and its ventures for information; nothing on it is an offer of securities or financial advice.",
        "Content, names and logos on this site belong to AFX Holding Group or its ventures. You may share links to our pages; please ask us before reusing their content.",
        "Links to our ventures' sites and to the external store lead to services with their own terms.",
        "We may update these terms; the date above shows the latest version.",
      ],
    },
    {
      id: "privacy",
      heading: "Privacy Policy",
      paragraphs: [
        "When you join our newsletter we store your e-mail address, your name, where on the site you signed up, and your browser's user agent and referrer, to send you our news and to understand which pages bring readers.",
        "You are subscribed only once you confirm with the link we e-mail you; an address that is not confirmed within 30 days is deleted. We record when, and on which form, you agreed, and the wording you were shown. Every e-mail carries a link that unsubscribes you at once.",
        "When you send a message through the Help page we store it to answer you. When you sign in we store the profile your sign-in provider shares with us.",
        "We keep a session cookie while you are signed in and remember your sidebar and theme preferences in your browser. We do not sell your data.",
        "Members can download everything we store about them, or delete their account and that data, from Settings. Deleting keeps only a coded fingerprint of the e-mail address, which cannot be read back, so that it is never mailed or added to a list again. To correct your data, or for anything else about it, contact us using the details below.",
      ],
    },
  ],
} as const;
