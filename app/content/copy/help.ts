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
      answer:
        "Signed-in members can switch the newsletter off in Settings; anyone can also write to us with the form below.",
    },
  ],
  formHeading: "Send Us a Message",
  success: "Thank you! Your message has been sent. We'll get back to you soon.",
} as const;
