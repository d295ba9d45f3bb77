import CCompositorModule
import CompositorModule
import Testing
import _PreviewProtocolTestSupport

/// A host's side of the callbacks, as a C compositor writes them: what the library told it
/// (phase and stage notifications, take-away and give-back), and the host's own clock, which
/// the test steps. Passed to the library as the callbacks' user data.
final class HostRecorder {
    struct Notice: Equatable, CustomStringConvertible {
        var interaction: UInt32
        var phase: UInt32
        var reason: UInt32
        var stage: UInt32

        var description: String {
            "#\(interaction) phase \(phase)" + (reason != 0 ? " reason \(reason)" : "")
                + (stage != 0 ? " stage \(stage)" : "")
        }
    }

    var phases: [Notice] = []
    /// Each phase notification's device and time, in the order of `phases`.
    var phaseDevices: [OpaquePointer?] = []
    var phaseTimes: [UInt64] = []
    var stages: [Notice] = []
    var takenAway: [Int32] = []
    var givenBack: [Int32] = []
    /// The host's monotonic clock, microseconds.
    var now: UInt64 = 1_000_000
    /// The host's wl_compositor, whose wl_region resources region_boxes reads.
    var compositor: MiniCompositor?
    /// Set: the phase callback destroys this context, as a host shutting down from it may.
    var destroyFromPhase: OpaquePointer?

    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ data: UnsafeMutableRawPointer?) -> HostRecorder {
        Unmanaged<HostRecorder>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Every callback set; `stage` as a host built against this header sets it.
    func callbacks(stage: Bool = true) -> preview_interaction_callbacks {
        var callbacks = preview_interaction_callbacks()
        callbacks.size = MemoryLayout<preview_interaction_callbacks>.size
        callbacks.take_away = { data, _, contact, _ in HostRecorder.from(data).takenAway.append(contact) }
        callbacks.give_back = { data, _, contact, _ in HostRecorder.from(data).givenBack.append(contact) }
        callbacks.phase = { data, event in
            let recorder = HostRecorder.from(data)
            recorder.phases.append(Notice(event!.pointee))
            recorder.phaseDevices.append(event!.pointee.device)
            recorder.phaseTimes.append(event!.pointee.time_usec)
            if let context = recorder.destroyFromPhase { #expect(previewInteractionDestroy(context) == 0) }
            recorder.destroyFromPhase = nil
        }
        callbacks.now_usec = { data in HostRecorder.from(data).now }
        callbacks.region_boxes = { data, region, boxes, capacity in
            guard let region, let operations = HostRecorder.from(data).compositor?.region(of: region)?.operations
            else { return -1 }
            var count: Int32 = 0
            for case .add(let r) in operations {
                if count < capacity { boxes?[Int(count)] = .init(x: r.x, y: r.y, width: r.width, height: r.height) }
                count += 1
            }
            return count
        }
        if stage {
            callbacks.stage = { data, event in HostRecorder.from(data).stages.append(Notice(event!.pointee)) }
        }
        return callbacks
    }
}

extension HostRecorder.Notice {
    init(_ event: preview_interaction_phase_event) {
        self.init(
            interaction: event.interaction, phase: event.phase.rawValue, reason: event.reason.rawValue,
            stage: event.stage)
    }
}
