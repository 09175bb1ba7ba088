/** Word lists for generated records (ASCII only, so names survive every document format). */

export const FIRST_NAMES = [
  "Ada", "Alan", "Amara", "Anders", "Aisha", "Bianca", "Bruno", "Camila", "Carlos", "Chen", "Chloe", "Dario",
  "Dmitri", "Elena", "Emeka", "Fatima", "Felix", "Grace", "Hana", "Hugo", "Ines", "Ivan", "Jamal", "Jana",
  "Kai", "Kenji", "Lara", "Leon", "Lucia", "Malik", "Maya", "Mateo", "Nadia", "Nils", "Olga", "Omar",
  "Priya", "Quinn", "Rafael", "Rosa", "Sami", "Sofia", "Tariq", "Tessa", "Uma", "Viktor", "Wen", "Yara",
  "Yusuf", "Zoe"
] as const

export const LAST_NAMES = [
  "Abebe", "Alvarez", "Andersen", "Bauer", "Becker", "Bianchi", "Brennan", "Castro", "Chowdhury", "Costa",
  "Dubois", "Eriksson", "Fischer", "Fontaine", "Garcia", "Haddad", "Hoffmann", "Ito", "Jensen", "Kaur",
  "Kim", "Kowalski", "Lindqvist", "Lopez", "Mbeki", "Meyer", "Moreau", "Nakamura", "Novak", "Okafor",
  "Olsen", "Park", "Petrov", "Quintero", "Rossi", "Sato", "Schmidt", "Silva", "Svensson", "Tanaka",
  "Torres", "Van Dijk", "Wagner", "Walsh", "Weber", "Xu", "Yilmaz", "Zhang", "Zimmermann", "Nowak"
] as const

export const COMPANIES = [
  "Acme Robotics", "Blue Harbor Labs", "Cobalt Systems", "Driftwood Analytics", "Evergreen Health",
  "Foxglove Media", "Granite Logistics", "Helios Energy", "Indigo Payments", "Juniper Retail",
  "Kestrel Aerospace", "Lumen Education", "Meridian Bank", "Northwind Traders", "Orchid Biotech",
  "Pinecone Software", "Quarry Games", "Riverstone Insurance", "Saffron Foods", "Tidewater Shipping"
] as const

export const TITLES = [
  "Software Engineer", "Senior Software Engineer", "Data Analyst", "Product Manager", "UX Designer",
  "Account Executive", "Customer Success Manager", "DevOps Engineer", "QA Engineer", "Marketing Manager",
  "Recruiter", "Financial Analyst", "Operations Lead", "Technical Writer", "Data Scientist"
] as const

export const CITIES = [
  ["New York", "NY", "United States", "10001"], ["San Francisco", "CA", "United States", "94105"],
  ["Austin", "TX", "United States", "73301"], ["Chicago", "IL", "United States", "60601"],
  ["Seattle", "WA", "United States", "98101"], ["Boston", "MA", "United States", "02108"],
  ["Denver", "CO", "United States", "80202"], ["Toronto", "ON", "Canada", "M5H 2N2"],
  ["London", "", "United Kingdom", "EC1A 1BB"], ["Berlin", "", "Germany", "10115"]
] as const

export const STREETS = ["Main Street", "Oak Avenue", "Pine Road", "Maple Drive", "Cedar Lane", "Elm Street", "Harbor Way"] as const

export const SCHOOLS = [
  "University of Michigan", "Georgia Institute of Technology", "University of Toronto", "Imperial College London",
  "Technical University of Munich", "University of Texas at Austin", "McGill University", "Purdue University"
] as const

export const DISCIPLINES = ["Computer Science", "Mathematics", "Economics", "Design", "Physics", "Business Administration"] as const
export const DEGREES = ["Bachelor's Degree", "Master's Degree", "Doctorate", "Associate's Degree"] as const

export const TAGS = ["Python", "TypeScript", "Go", "SQL", "Leadership", "Remote", "Referral", "Relocation", "Spanish", "Kubernetes"] as const

export const JOB_NAMES = [
  "Senior Backend Engineer", "Frontend Engineer", "Product Designer", "Data Engineer", "Engineering Manager",
  "Account Executive", "Customer Success Manager", "Technical Recruiter", "Site Reliability Engineer",
  "Marketing Manager", "Financial Analyst", "Security Engineer"
] as const

export const DEPARTMENTS = ["Engineering", "Design", "Sales", "Customer Success", "People", "Marketing", "Finance", "Operations"] as const
export const DIVISIONS = ["North America", "EMEA", "Corporate"] as const
export const OFFICES = ["New York", "San Francisco", "Austin", "Toronto", "London", "Berlin", "Remote"] as const

export const COURSE_NAMES = [
  "Security Awareness Basics", "Onboarding: Welcome to the Company", "Effective Code Review", "Data Privacy and GDPR",
  "Leading One-on-Ones", "Customer Empathy 101", "Incident Response Fundamentals", "Writing Clear Documentation",
  "Inclusive Hiring Practices", "Negotiation Skills", "SQL for Analysts", "Kubernetes in Production",
  "Presentation Skills", "Time Management", "Accessibility in Design", "Financial Literacy for Managers",
  "Harassment Prevention", "Agile Project Management", "Giving and Receiving Feedback", "Introduction to Machine Learning",
  "Workplace Safety", "Remote Collaboration", "Product Discovery", "Sales Fundamentals"
] as const

export const COURSE_CATEGORIES = ["Compliance", "Engineering", "Leadership", "Soft Skills", "Onboarding"] as const

export const WEATHER = ["sunny", "partly cloudy", "cloudy", "light rain", "rain", "thunderstorms", "snow", "fog", "windy"] as const
