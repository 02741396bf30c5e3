/**
 * The words of the content pages (SPEC.md §2), one place per fact. Numbers the spec reads two
 * ways stay as the spec puts them page by page: 11 ventures on Investors, 9 / 8 / 1 on Portfolio.
 */
export interface Tile {
  value: string;
  label: string;
}

export interface Card {
  title: string;
  text: string;
}

export const landingCopy = {
  headline: "A digital portfolio hub for ventures that matter",
  subheadline: "Browse our ventures and consider funding us!",
  cta: "Explore Portfolio",
  portfolioHeading: "Our Portfolio",
  portfolioIntro:
    "Fintech, food tech, government services, family support, pet care, journalism and logistics: every venture of the group in one place.",
  aboutHeading: "About AFX Holding Group",
  about: [
    "AFX Holding Group builds and runs a portfolio of small ventures, each solving a concrete problem for the people it serves.",
    "We share capital, people and tooling across the group so that every venture can grow organically and stay focused on impact.",
  ],
  connectHeading: "Ready to Connect?",
  connectText: "Sign in to follow our ventures, get updates and reach our team.",
  connectCta: "Get Started",
} as const;

export const portfolioCopy = {
  intro: "Every venture of AFX Holding Group, from fintech to journalism, in one unified ecosystem.",
  // SPEC.md §9: the portfolio page's reading.
  tiles: [
    { value: "9", label: "Active Ventures" },
    { value: "8", label: "Industry Sectors" },
    { value: "1", label: "Unified Ecosystem" },
  ] satisfies Tile[],
} as const;

export const investorsCopy = {
  intro:
    "We build ventures that solve real problems and grow on their own merits. Invest alongside us in a diversified portfolio.",
  // SPEC.md §9: the investors page's reading.
  tiles: [
    { value: "11", label: "Active Ventures" },
    { value: "Impact", label: "Focus" },
    { value: "Organic", label: "Growth" },
  ] satisfies Tile[],
  whyHeading: "Why Invest With Us",
  why: [
    { title: "Diversified portfolio", text: "One investment reaches ventures across finance, food, government, family, pets, media and logistics." },
    { title: "Shared infrastructure", text: "Our ventures share teams, tooling and know-how, so capital goes further." },
    { title: "Impact first", text: "Every venture addresses a concrete need, from childhood development to civil infrastructure." },
    { title: "Organic growth", text: "We grow from customers and revenue, not from paid hype." },
  ] satisfies Card[],
  ctaHeading: "Talk to our investor relations team",
  emailCta: "Email Investor Relations",
  callCta: "Call Us",
} as const;

export const fundingCopy = {
  intro:
    "We are seed-strapping: our ventures start lean on the group's own resources and raise outside capital only to grow what already works.",
  todayHeading: "Where We Are Today",
  modelHeading: "Partnership Models",
  models: [
    { title: "Equity partnership", text: "Invest in the group and share in the whole portfolio." },
    { title: "Venture investment", text: "Back a single venture whose mission matches yours." },
    { title: "Strategic partnership", text: "Bring capital together with expertise, distribution or technology." },
  ] satisfies Card[],
  reasonsHeading: "Why Fund AFX",
  reasons: [
    "Capital-efficient ventures that already share a team and a platform",
    "A portfolio spread across industries, which spreads the risk",
    "Transparent reporting and direct access to the founders",
    "Impact you can point to in everyday lives",
  ],
  ctaHeading: "Let's build together",
  cta: "Connect With Us",
} as const;

export const consultancyCopy = {
  intro:
    "We consult for founders and organisations whose projects fit how we build. This is what we look for and how we help.",
  criteriaHeading: "What We Look For",
  criteria: [
    { title: "Innovation", text: "A new approach to a real problem, not a copy of what exists." },
    { title: "Market Fit", text: "Evidence that people need it and will pay for it." },
    { title: "Scalability", text: "A model that can grow without growing costs at the same pace." },
    { title: "Team", text: "Committed people with the skills, or the will to learn them." },
  ] satisfies Card[],
  supportHeading: "How We Support You",
  support: [
    { title: "Strategy", text: "Business models, positioning and roadmaps." },
    { title: "Product", text: "Design, engineering and launching a first version." },
    { title: "Go-to-market", text: "Brand, channels and the first customers." },
    { title: "Operations", text: "Finance, legal set-up and the shared services of the group." },
  ] satisfies Card[],
  ctaHeading: "Have a project in mind?",
  cta: "Submit Your Inquiry",
} as const;

export const partnersCopy = {
  intro: "Partner with AFX Holding Group and reach every venture of our portfolio at once.",
  benefitsHeading: "Partner Benefits",
  benefits: [
    "Access to nine ventures and their customers through one relationship",
    "Joint marketing across the group's channels and newsletter",
    "Early access to new ventures and products",
    "A named contact at the group for every partnership",
  ],
  typesHeading: "Partnership Types",
  types: [
    { title: "Technology Partners", text: "Integrate your platform or services with our ventures' products." },
    { title: "Distribution Partners", text: "Bring our products to your customers and markets." },
    { title: "Strategic Alliances", text: "Long-term collaborations on shared goals and ventures." },
    { title: "Affiliate Partners", text: "Recommend our products and earn a commission on every sale." },
  ] satisfies Card[],
  ctaHeading: "Become a partner",
  emailCta: "Email Us",
  callCta: "Call Us",
} as const;

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
        "When you send a message through the Help page we store it to answer you. When you sign in we store the profile your sign-in provider shares with us.",
        "We keep a session cookie while you are signed in and remember your sidebar and theme preferences in your browser. We do not sell your data.",
        "To see, correct or delete your data, or to unsubscribe, contact us using the details below.",
      ],
    },
  ],
} as const;

export const helpCopy = {
  intro: "Questions about our ventures, investing or your account? We're here to help.",
  bookHeading: "Book a Session",
  bookText: "Talk to our consultancy team about your project.",
  faqHeading: "Frequently Asked Questions",
  faq: [
    {
      question: "What is AFX Holding Group?",
      answer:
        "A holding group that builds and runs a portfolio of ventures in fintech, food tech, government services, family support, pet care, journalism and logistics.",
    },
    {
      question: "How can I invest in AFX or one of its ventures?",
      answer: "Read the Investors and Funding pages, then contact our investor relations team by e-mail or phone.",
    },
    {
      question: "Where can I find the pitch decks?",
      answer: "On the Documents page: a corporate overview and a fact sheet for every venture, as PDF downloads.",
    },
    {
      question: "How do I unsubscribe from the newsletter?",
      answer: "Signed-in members can switch the newsletter off in Settings; anyone can also write to us with the form below.",
    },
  ],
  formHeading: "Send Us a Message",
  success: "Thank you! Your message has been sent. We'll get back to you soon.",
} as const;

export const settingsCopy = {
  intro: "Your account details and how the site behaves for you.",
  darkMode: "Dark Mode",
  darkModeHelp: "Switches the site between its dark and light theme right away. The choice is kept in this browser.",
  emailNotifications: "Email Notifications",
  emailNotificationsHelp:
    "Kept in this browser. We do not send account e-mails yet; when we do, this choice will decide whether you get them.",
  newsletter: "Newsletter",
  newsletterHelp: "Subscribes your account e-mail to our newsletter, or unsubscribes it, when you save.",
  newsletterSignedOut: "Sign in to manage your newsletter subscription here.",
  twoFactor: "Two-Factor Authentication",
  twoFactorHelp: "Sign-in runs through our identity provider; ask us to turn on a second factor for your account.",
  deleteAccount: "Delete Account",
  deleteAccountHelp: "We delete your account and its data on request; the Help form sends us that request.",
} as const;
