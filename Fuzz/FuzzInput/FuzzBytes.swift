/// A fuzz input read as a script of choices; past the end every read is 0 (so every input,
/// however short, is a whole script). Each target adds its own vocabulary in an extension.
public struct FuzzBytes {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var position = 0
    public var atEnd: Bool { position >= bytes.count }

    public init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    public mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }
}
