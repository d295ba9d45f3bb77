// The app's content: photos with a title, a place and an optional rating.

public struct Item: Hashable, Sendable, Identifiable {
    /// Stable across deletions, so an interaction keeps pointing at the item it started on.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        public var rawValue: Int
        public init(_ rawValue: Int) { self.rawValue = rawValue }
        public var description: String { "item\(rawValue)" }
    }

    public enum Rating: String, Hashable, Sendable {
        case love
        case nope
    }

    public var id: ID
    public var title: String
    public var place: String
    public var date: String
    /// Picks the procedural landscape drawn as the photo (see Artwork).
    public var artwork: Int
    public var rating: Rating?

    public init(id: ID, title: String, place: String, date: String, artwork: Int, rating: Rating? = nil) {
        self.id = id
        self.title = title
        self.place = place
        self.date = date
        self.artwork = artwork
        self.rating = rating
    }

    private static let catalogue: [(String, String)] = [
        ("Aurora Ridge", "Tromsø, Norway"), ("Morning Fjord", "Geiranger, Norway"),
        ("Dune Sea", "Erg Chebbi, Morocco"), ("Glacier Lake", "Lake Tekapo, New Zealand"),
        ("Harbour Lights", "Valletta, Malta"), ("Pine Valley", "Yosemite, USA"),
        ("Salt Flats", "Uyuni, Bolivia"), ("Red Canyon", "Sedona, USA"),
        ("Lavender Hills", "Valensole, France"), ("Misty Peaks", "Zhangjiajie, China"),
        ("Coral Bay", "Ningaloo, Australia"), ("Volcano Dawn", "Bromo, Indonesia"),
        ("Tea Terraces", "Munnar, India"), ("Ice Cave", "Vatnajökull, Iceland"),
        ("Autumn Lake", "Bled, Slovenia"), ("Night Desert", "Wadi Rum, Jordan"),
    ]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A deterministic library of `count` photos (titles repeat with a number after 16).
    public static func samples(count: Int) -> [Item] {
        (0..<max(0, count)).map { i in
            let (title, place) = catalogue[i % catalogue.count]
            let round = i / catalogue.count
            return Item(
                id: ID(i + 1), title: round == 0 ? title : "\(title) \(round + 1)", place: place,
                date: "\(3 + (i * 7) % 26) \(months[(i * 5) % 12]) 20\(19 + i % 7)", artwork: i)
        }
    }
}
