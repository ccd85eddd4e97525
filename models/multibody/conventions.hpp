// The conventions block of the multibody model (`liesim describe multibody`, README.md).
#pragma once

namespace liesim::multibody {

inline constexpr const char* conventions_text = R"(SPACE       A kinematic tree of rigid bodies read from parameter `file` (URDF, or the native TOML format of
            docs/multibody.md). Body i is moved by joint i relative to its parent (or the fixed world/root);
            its frame is parent * origin * motion(q). The state lives on the joints' own spaces:
            revolute, continuous, prismatic (q, v) in R^2 (angle in rad or displacement in m, and its rate);
            spherical (R, omega) in SO(3) x R^3, R the child's attitude in the joint frame, omega its
            angular velocity relative to the parent, child (body) frame; floating (R, p, omega, v) in
            SO(3) x R^3 x R^6, p the child origin in the joint frame, (omega, v) the child's velocity relative
            to the parent in the child frame (rotation first); fixed joints carry no state.
GROUP       direct product over the moving joints: R^2 (one-dof), SO(3) x R^3 (spherical), SO(3) x R^9
            (floating); so(3) = R^3 with hat(w) v = w x v. exp, dexpinv, bracket block by block (exact).
ACTION      one-dof: (a, b).(q, v) = (q + a, v + b); spherical: (B, b).(R, omega) = (B R, omega + b);
            floating: (B, b).(R, p, omega, v) = (B R, (p, omega, v) + b). Left actions; rotations move by
            left multiplication, so R stays on SO(3) under every Lie group method (no Euler angles, no
            quaternion renormalisation).
GENERATOR   f = (v, qdd) for one-dof joints; (R omega, omegadot) for spherical (R' = R hat(omega) = hat(R omega) R);
            (R omega, R v, omegadot, vdot) for floating. qdd = (qdd_i) by Featherstone's articulated-body algorithm
            on 6-D spatial vectors (rotation first, body frames), O(number of bodies), no allocation; gravity as
            the root's acceleration -g. Parameter dynamics=composite_rigid_body uses CRBA + RNEA + Cholesky
            instead (O(n^3), the tests' independent check).
EMBEDDING   per moving joint in tree order (depth first, siblings in file order): one-dof [J.q, J.v];
            spherical [J.R11 .. J.R33 (row-major), J.wx, J.wy, J.wz]; floating [J.R11 .. J.R33, J.x, J.y, J.z,
            J.wx, J.wy, J.wz, J.vx, J.vy, J.vz]. F (coded directly, equal to psi_*(f) on M): q' = v, v' = qdd;
            R' = R hat(omega); p' = R v; (omega, v)' = qdd. No exact Jacobian: implicit methods and SUNDIALS
            use finite differences.
RIGID BODY  (ABI 2.2, Lie group variational integrators) a description of one body on a spherical joint, or on a
            floating joint with its centre of mass at the body origin, and no joint force: (R, x) = the joint's
            (R, p), (Omega, v) = (omega, v); J about the joint centre (spherical) or the centre of mass; U = -m g . x_com.
INVARIANTS  energy = kinetic + gravity + springs + PD springs (one-dof: 1/2 k (q - rest)^2; spherical:
            1/2 k |log(R_rest^T R)|^2) - constant one-dof torques * q (conserved unless
            the description has damping, kd > 0, tabulated or body-frame torques; the doc says which);
            conserved momenta of each subtree hanging from the world whose root joint has no force on it:
            floating: angular about the world origin and linear momentum (all 6 without gravity; the
            vertical angular and the horizontal linear components with gravity); spherical: angular
            momentum about its centre (vertical only, with gravity); revolute/continuous: angular
            momentum about its axis if the axis is vertical or there is no gravity; prismatic: linear
            momentum along a horizontal axis; J.orthogonality = ||R^T R - I||_F per spherical/floating joint.
OBSERVABLES J.q, J.v (one-dof joints); LINK.x, LINK.y, LINK.z (link origin, world frame) and LINK.R11 .. LINK.R33
            (attitude link -> world) for every link (a URDF's root link included); kinetic_energy, potential_energy.
PARAMETERS  file (required; .urdf/.xml or .toml); gravity (m/s^2, world frame; default 'description': the TOML
            file's, 0,0,-9.81 for URDF); q0, v0 (default 'description'; numbers override the initial state, moving joints in state order: one-dof 1 value;
            spherical 3 (rotation vector) and 3 (omega); floating 6 (x, y, z, rotation vector) and 6 (omega, v));
            dynamics = articulated_body | composite_rigid_body. Default initial state: zero configuration at rest.
UNITS       SI: m, kg, kg m^2, s, rad, N, N m. URDF friction, limits, mimic-free extras (collision,
            transmission) are ignored, visuals only drawn (scene); closed loops, contact and joint limits are
            not supported.
SOURCE      R. Featherstone, Rigid Body Dynamics Algorithms, Springer 2008 (Tables 5.1, 6.2, 7.1); Munthe-Kaas
            Lie group methods on the joints' groups as in the thesis of E. Cokaj. docs/multibody.md.)";

}  // namespace liesim::multibody
